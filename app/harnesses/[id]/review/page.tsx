import { Suspense } from 'react';
import { Review } from '../../../../components/harnesses/review.tsx';
import { requireFound } from '../../../../components/trpc/server.ts';

export default async function ReviewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireFound((api) => api.harnesses.byId.query({ id }));
  return (
    <Suspense>
      <Review id={id} />
    </Suspense>
  );
}
