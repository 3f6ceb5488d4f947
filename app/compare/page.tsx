import { Suspense } from 'react';
import { ComparePage } from '../../components/compare/compare-page.tsx';

export default function Compare() {
  return (
    <Suspense>
      <ComparePage />
    </Suspense>
  );
}
