import { Suspense } from 'react';
import { RigPage } from '../../../components/rigger/rig-page.tsx';
import { requireFound } from '../../../components/trpc/server.ts';

export default async function Rig({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireFound((api) => api.rigs.byId.query({ id }));
  return (
    <Suspense>
      <RigPage id={id} />
    </Suspense>
  );
}
