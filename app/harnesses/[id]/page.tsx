import { Suspense } from 'react';
import { HarnessPage } from '../../../components/harnesses/harness-page.tsx';

export default async function Harness({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <HarnessPage id={id} />
    </Suspense>
  );
}
