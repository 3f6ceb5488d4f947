import { Suspense } from 'react';
import { RunDetail } from '../../../components/runs/run-detail.tsx';
import { requireFound } from '../../../components/trpc/server.ts';

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireFound((api) => api.runs.byId.query({ id }));
  return (
    <Suspense>
      <RunDetail id={id} />
    </Suspense>
  );
}
