import { Suspense } from 'react';
import { CandidateEditor } from '../../../../../components/rigger/candidate-editor.tsx';

export default async function RigCandidate({
  params,
}: {
  params: Promise<{ id: string; candidateId: string }>;
}) {
  const { id, candidateId } = await params;
  return (
    <Suspense>
      <CandidateEditor rigId={id} candidateId={candidateId} />
    </Suspense>
  );
}
