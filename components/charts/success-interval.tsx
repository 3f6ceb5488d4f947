// Success rate with its Wilson 95% interval on a 0–100% track: the point and its whiskers.
import { interval, pct } from '../runs/format.ts';

export function SuccessInterval({
  rate,
  iv,
  testId,
}: {
  rate: number | null;
  iv: [number, number];
  testId?: string;
}) {
  return (
    <div data-testid={testId}>
      <div className="flex items-baseline gap-2">
        <span
          className="text-3xl font-semibold tabular-nums"
          data-testid={testId ? `${testId}-rate` : undefined}
        >
          {pct(rate)}
        </span>
        <span
          className="text-sm text-muted-foreground tabular-nums"
          data-testid={testId ? `${testId}-interval` : undefined}
        >
          95% CI {interval(rate === null ? null : iv)}
        </span>
      </div>
      <div className="relative mt-3 h-3 rounded-full bg-muted">
        {rate !== null ? (
          <>
            <div
              className="absolute top-0 h-3 rounded-full bg-success/25"
              style={{ left: `${iv[0] * 100}%`, width: `${(iv[1] - iv[0]) * 100}%` }}
            />
            <div
              className="absolute top-[-3px] h-[18px] w-[3px] rounded bg-success transition-all"
              style={{ left: `calc(${rate * 100}% - 1.5px)` }}
            />
          </>
        ) : null}
      </div>
      <div className="mt-1 flex justify-between text-[10px] text-muted-foreground">
        <span>0%</span>
        <span>50%</span>
        <span>100%</span>
      </div>
    </div>
  );
}
