import { Suspense } from 'react';
import { RunsList } from '../../components/runs/runs-list.tsx';

export default function RunsPage() {
  return (
    <Suspense>
      <RunsList />
    </Suspense>
  );
}
