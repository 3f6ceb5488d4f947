import { Suspense } from 'react';
import { NewHarness } from '../../../components/harnesses/new-harness.tsx';

export default function NewHarnessPage() {
  return (
    <Suspense>
      <NewHarness />
    </Suspense>
  );
}
