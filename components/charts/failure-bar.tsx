// A compact stacked bar of the failure distribution (lists and side-by-side views).
import { failureColor, failureLabel } from '../runs/format.ts';

export function FailureBar({
  distribution,
  scored,
  className,
}: {
  distribution: Record<string, number>;
  /** Scored episodes (successes + failures): with none, "no failures" would be a false comfort. */
  scored?: number;
  className?: string;
}) {
  const entries = Object.entries(distribution).filter(([, n]) => n > 0);
  const total = entries.reduce((a, [, n]) => a + n, 0);
  if (scored === 0) return <span className="text-xs text-muted-foreground">none scored</span>;
  if (total === 0) return <span className="text-xs text-muted-foreground">no failures</span>;
  return (
    <div className={className}>
      <div
        className="flex h-2 w-full min-w-24 overflow-hidden rounded-full bg-muted"
        title={entries.map(([c, n]) => `${failureLabel(c)}: ${n}`).join('\n')}
      >
        {entries.map(([c, n]) => (
          <div key={c} style={{ width: `${(n / total) * 100}%`, background: failureColor(c) }} />
        ))}
      </div>
      <div className="mt-1 flex flex-wrap gap-x-2 text-[11px] text-muted-foreground">
        {entries.map(([c, n]) => (
          <span key={c} className="inline-flex items-center gap-1">
            <span className="size-2 rounded-full" style={{ background: failureColor(c) }} />
            {failureLabel(c)} {n}
          </span>
        ))}
      </div>
    </div>
  );
}
