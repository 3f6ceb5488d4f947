import { pct } from '../runs/format.ts';
import { inBand } from './model.ts';

/** The success band as a gauge: the band shaded, a marker at the rate. */
export function BandGauge({
  band,
  rate,
  testId,
}: {
  band: [number, number];
  rate: number | null;
  testId?: string;
}) {
  const inside = inBand(band, rate);
  return (
    <div className="w-48" data-testid={testId} data-in-band={inside ? 'true' : 'false'}>
      <div className="relative h-3 rounded-full bg-muted">
        <div
          className="absolute inset-y-0 rounded-full bg-success-soft"
          style={{ left: `${band[0] * 100}%`, width: `${(band[1] - band[0]) * 100}%` }}
        />
        {rate !== null ? (
          <div
            className={`absolute -top-1 h-5 w-1 rounded ${inside ? 'bg-success' : 'bg-danger'}`}
            style={{ left: `calc(${rate * 100}% - 2px)` }}
          />
        ) : null}
      </div>
      <div className="mt-1 flex justify-between text-[10px] text-muted-foreground">
        <span>0%</span>
        <span>
          band {pct(band[0], 0)}–{pct(band[1], 0)}
        </span>
        <span>100%</span>
      </div>
    </div>
  );
}
