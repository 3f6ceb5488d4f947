import { Suspense } from 'react';
import { RigsList } from '../../components/rigger/rigs-list.tsx';

export default function RigsPage() {
  return (
    <Suspense>
      <RigsList />
    </Suspense>
  );
}
