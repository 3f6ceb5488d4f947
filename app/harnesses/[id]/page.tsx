import { Suspense } from 'react';
import { HarnessPage } from '../../../components/harnesses/harness-page.tsx';
import { requireFound } from '../../../components/trpc/server.ts';

export default async function Harness({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireFound((api) => api.harnesses.byId.query({ id }));
  return (
    <Suspense>
      <HarnessPage id={id} />
    </Suspense>
  );
}
