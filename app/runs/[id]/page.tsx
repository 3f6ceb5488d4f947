import { Suspense } from 'react';
import { RunDetail } from '../../../components/runs/run-detail.tsx';

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <RunDetail id={id} />
    </Suspense>
  );
}
