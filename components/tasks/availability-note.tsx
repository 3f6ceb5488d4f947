import type { RouterOutputs } from '../trpc/types.ts';

type Availability = RouterOutputs['bridges']['list'][number]['availability'];

/** A bridge that cannot run on this machine: why, and the one command that fixes it. */
export function AvailabilityNote({ availability }: { availability: Availability }) {
  if (availability.available) return null;
  return (
    <div
      className="mt-2 rounded-md border border-warning/40 bg-warning-soft px-2 py-1.5 text-xs"
      data-testid="bridge-unavailable"
    >
      <div className="font-medium">Unavailable on this machine: {availability.reason}.</div>
      <div className="mt-1">
        Fix: <code className="rounded bg-muted px-1 font-mono">{availability.fix}</code>, then
        restart the studio.
      </div>
    </div>
  );
}
