'use client';
// Agent steps per episode, stacked by outcome: successes that take long and failures that stop
// early read differently, and both sit beside the success rate.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

export interface HistogramEpisode {
  steps: number;
  outcome: string | null;
}

export function stepBins(episodes: HistogramEpisode[], maxSteps: number, binCount = 10) {
  const width = Math.max(1, Math.ceil((maxSteps + 1) / binCount));
  const bins = Array.from({ length: Math.ceil((maxSteps + 1) / width) }, (_, i) => ({
    label: width === 1 ? `${i}` : `${i * width}–${Math.min(maxSteps, i * width + width - 1)}`,
    success: 0,
    failure: 0,
  }));
  for (const e of episodes) {
    if (e.outcome !== 'success' && e.outcome !== 'failure') continue;
    const bin = bins[Math.min(bins.length - 1, Math.floor(e.steps / width))];
    if (bin) bin[e.outcome] += 1;
  }
  return bins;
}

export function StepsHistogram({
  episodes,
  maxSteps,
}: {
  episodes: HistogramEpisode[];
  maxSteps: number;
}) {
  const data = stepBins(episodes, maxSteps);
  return (
    <div className="h-[200px]" data-testid="steps-histogram">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ left: -16, right: 8, top: 8, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
          <XAxis
            dataKey="label"
            tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }}
            tickLine={false}
          />
          <YAxis
            allowDecimals={false}
            tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            contentStyle={{
              background: 'var(--card)',
              border: '1px solid var(--border)',
              borderRadius: 8,
              fontSize: 12,
            }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar
            dataKey="success"
            name="Success"
            stackId="o"
            fill="var(--success)"
            isAnimationActive={false}
          />
          <Bar
            dataKey="failure"
            name="Failure"
            stackId="o"
            fill="var(--danger)"
            radius={[3, 3, 0, 0]}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
