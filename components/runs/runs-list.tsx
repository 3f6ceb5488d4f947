'use client';
import { useSearchParams } from 'next/navigation';
import { CompareView } from '../compare/compare-view.tsx';
import { PageHeader } from '../ui/misc.tsx';
import { RunsTable } from './runs-table.tsx';

/** `/runs`, or `/runs?compare=a..b` for two runs side by side. */
export function RunsList() {
  const compare = useSearchParams()?.get('compare');
  if (compare) return <CompareView pair={compare} />;
  return (
    <div>
      <PageHeader
        title="Runs"
        description="Every run: a policy on a task or a harness version, K seeded episodes. Success rates carry their 95% Wilson interval; errors are counted apart and never scored."
      />
      <RunsTable />
    </div>
  );
}
