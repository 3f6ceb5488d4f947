// Whether the graph is a harness spec yet, and if not, the first reasons why.
import type { ToSpecResult } from './model.ts';

export function SpecStatus({ spec }: { spec: ToSpecResult }) {
  if (spec.ok) {
    return (
      <div
        className="rounded-lg border border-success/40 bg-success-soft px-3 py-2 text-sm text-success"
        data-testid="spec-status"
        data-ok="true"
      >
        The graph is a valid harness spec.
      </div>
    );
  }
  return (
    <div
      className="rounded-lg border border-warning/40 bg-warning-soft px-3 py-2 text-sm text-warning"
      data-testid="spec-status"
      data-ok="false"
    >
      <div className="font-medium">Not a harness yet:</div>
      <ul className="list-disc pl-5">
        {spec.issues.slice(0, 6).map((i) => (
          <li key={`${i.nodeId ?? ''}:${i.message}`}>{i.message}</li>
        ))}
      </ul>
    </div>
  );
}
