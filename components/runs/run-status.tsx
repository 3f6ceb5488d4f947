import { Badge } from '../ui/badge.tsx';

const VARIANT: Record<string, 'success' | 'info' | 'danger' | 'outline' | 'warning'> = {
  completed: 'success',
  running: 'info',
  queued: 'outline',
  failed: 'danger',
  cancelled: 'warning',
};

export function RunStatus({
  status,
  done,
  total,
}: {
  status: string;
  done: number;
  total: number;
}) {
  return (
    <div className="flex flex-col gap-1">
      <Badge variant={VARIANT[status] ?? 'outline'} data-testid="run-status">
        {status}
      </Badge>
      <div className="flex items-center gap-1.5">
        <div className="h-1 w-16 overflow-hidden rounded-full bg-muted">
          <div
            className="h-full bg-primary transition-all"
            style={{ width: `${total ? (done / total) * 100 : 0}%` }}
          />
        </div>
        <span className="text-[11px] text-muted-foreground tabular-nums">
          {done}/{total}
        </span>
      </div>
    </div>
  );
}
