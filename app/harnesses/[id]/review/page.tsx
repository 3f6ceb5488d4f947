import { Suspense } from 'react';
import { Review } from '../../../../components/harnesses/review.tsx';

export default async function ReviewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <Review id={id} />
    </Suspense>
  );
}
