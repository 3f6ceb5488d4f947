import { Suspense } from 'react';
import { RigPage } from '../../../components/rigger/rig-page.tsx';

export default async function Rig({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <RigPage id={id} />
    </Suspense>
  );
}
