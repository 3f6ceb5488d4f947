import { Suspense } from 'react';
import { CandidateEditor } from '../../../../../components/rigger/candidate-editor.tsx';
import { requireFound } from '../../../../../components/trpc/server.ts';

export default async function RigCandidate({
  params,
}: {
  params: Promise<{ id: string; candidateId: string }>;
}) {
  const { id, candidateId } = await params;
  // The candidate must be one of the rig's.
  await requireFound(async (api) =>
    (await api.rigs.byId.query({ id })).candidates.some((c) => c.id === candidateId),
  );
  return (
    <Suspense>
      <CandidateEditor rigId={id} candidateId={candidateId} />
    </Suspense>
  );
}
