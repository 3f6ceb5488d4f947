'use client';
import {
  Bar,
  BarChart,
  Cell,
  LabelList,
  ResponsiveContainer,
  Tooltip,
  type TooltipContentProps,
  XAxis,
  YAxis,
} from 'recharts';
import type { NameType, ValueType } from 'recharts/types/component/DefaultTooltipContent';
import { failureColor, failureHelp, failureLabel } from '../runs/format.ts';

interface Row {
  category: string;
  label: string;
  count: number;
  help: string;
}

export function FailureChart({
  distribution,
  invalidLoopLimit,
}: {
  distribution: Record<string, number>;
  /** The run's consecutive-invalid limit (null: the default), for the loop rule's wording. */
  invalidLoopLimit?: number | null;
}) {
  const data: Row[] = Object.entries(distribution).map(([category, count]) => ({
    category,
    label: failureLabel(category),
    count,
    help: failureHelp(category, invalidLoopLimit),
  }));
  return (
    <div className="h-[180px]" data-testid="failure-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ left: 8, right: 32, top: 4, bottom: 4 }}>
          <XAxis type="number" allowDecimals={false} hide />
          <YAxis
            type="category"
            dataKey="label"
            width={150}
            tickLine={false}
            axisLine={false}
            tick={{ fontSize: 12, fill: 'var(--muted-foreground)' }}
          />
          <Tooltip cursor={{ fill: 'var(--muted)' }} content={FailureTooltip} />
          <Bar dataKey="count" radius={[0, 4, 4, 0]} isAnimationActive={false}>
            {data.map((d) => (
              <Cell key={d.category} fill={failureColor(d.category)} />
            ))}
            <LabelList
              dataKey="count"
              position="right"
              style={{ fontSize: 12, fill: 'var(--foreground)' }}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** The category, its count and what it means (for the loop: the rule that decides it). */
function FailureTooltip({ active, payload }: TooltipContentProps<ValueType, NameType>) {
  const row = payload?.[0]?.payload as Row | undefined;
  if (!active || !row) return null;
  return (
    <div
      className="max-w-72 rounded-lg border bg-card px-3 py-2 text-xs shadow-sm"
      data-testid="failure-tooltip"
      data-category={row.category}
    >
      <div className="font-medium">
        {row.label}: {row.count}
      </div>
      {row.help ? <div className="mt-1 text-muted-foreground">{row.help}</div> : null}
    </div>
  );
}
