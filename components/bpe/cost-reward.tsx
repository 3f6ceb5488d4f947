'use client';
// The EvoHarness cost-aware reward of one episode, term by term (PAPERS.md §2), with the run's
// parameters: what the task, efficiency, diversity (annealed weight), spam and invalid terms
// contributed to R(τ).
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc/client.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card.tsx';
import { rewardView } from './reward-model.ts';

const LABEL: Record<string, string> = {
  task: 'task (success)',
  efficiency: 'efficiency',
  diversity: 'diversity',
  spam: 'spam (exact repeats)',
  invalid: 'invalid actions',
};

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));

export function CostReward({ runId, episodeId }: { runId: string; episodeId: string }) {
  const trpc = useTRPC();
  const episode = useQuery(trpc.runs.episode.queryOptions({ id: episodeId }));
  const run = useQuery(trpc.runs.byId.queryOptions({ id: runId }));
  const view = rewardView(episode.data?.episode.costReward, run.data?.rewardParams);
  if (!view) return null;
  return (
    <Card className="mt-6" data-testid="cost-reward" data-total={view.total}>
      <CardHeader>
        <CardTitle>Cost-aware reward R(τ) = {fmt(view.total)}</CardTitle>
        <CardDescription>
          R = R_succ + λ_eff·R_eff + λ_div(u)·R_div − λ_spam·R_spam − λ_inv·R_inv, with this run's
          parameters
          {view.anneal
            ? ` · λ_div(u) = (${fmt(view.anneal.lambdaDivMax)} / 2)(1 + cos(π·${view.anneal.update}/${view.anneal.annealUpdates}))`
            : ''}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-muted-foreground">
            <tr>
              <th className="py-1 font-normal">term</th>
              <th className="py-1 font-normal">value</th>
              <th className="py-1 font-normal">weight</th>
              <th className="py-1 text-right font-normal">contribution</th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((r) => (
              <tr
                key={r.term}
                className="border-t"
                data-testid="reward-term"
                data-term={r.term}
                data-contribution={r.contribution}
              >
                <td className="py-1">
                  {LABEL[r.term]} <span className="text-xs text-muted-foreground">{r.symbol}</span>
                </td>
                <td className="py-1 font-mono" data-testid="reward-value">
                  {fmt(r.value)}
                </td>
                <td className="py-1 font-mono" data-testid="reward-weight">
                  {r.term === 'task' ? '1' : `${r.sign < 0 ? '−' : ''}${fmt(r.weight)}`}
                  {r.term === 'diversity' ? (
                    <span className="ps-1 text-xs text-muted-foreground">annealed λ_div(u)</span>
                  ) : null}
                </td>
                <td className="py-1 text-right font-mono" data-testid="reward-contribution">
                  {fmt(r.contribution)}
                </td>
              </tr>
            ))}
            <tr className="border-t font-medium">
              <td className="py-1" colSpan={3}>
                total
              </td>
              <td className="py-1 text-right font-mono" data-testid="reward-total">
                {fmt(view.total)}
              </td>
            </tr>
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
