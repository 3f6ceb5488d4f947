'use client';
// The run page's LLM card: tokens of the finished episodes (prompt, cached, completion), a cost
// estimate from the run's price (or the server's), the tokens of steps that never reached the
// environment (bpe meta-actions, ReAct thinks), and which mode the policy spoke and why.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MessageSquareText } from 'lucide-react';
import { modeSentence, type RunLlmReport } from '../../contracts/llm.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card.tsx';
import { Stat } from '../ui/misc.tsx';
import { priceLine, tokens, usageLine, usd } from './format.ts';

/**
 * The run's LLM report, read again while the run is in flight and whenever the count of finished
 * episodes moves (`done` is part of the query: the last episodes may end after the last timed read).
 */
export function useRunLlm(runId: string, inFlight: boolean, done?: number) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.runs.llm.queryOptions({ id: runId, ...(done !== undefined ? { done } : {}) }),
    refetchInterval: inFlight ? 3000 : false,
    placeholderData: keepPreviousData,
  });
}

export function RunLlmCard({
  runId,
  inFlight,
  done,
}: {
  runId: string;
  inFlight: boolean;
  /** Finished episodes: each one that ends adds tokens, so the report is read again. */
  done: number;
}) {
  const report = useRunLlm(runId, inFlight, done).data;
  if (!report) return null;
  return <RunLlmView report={report} />;
}

export function RunLlmView({ report: r }: { report: RunLlmReport }) {
  const sentence = modeSentence(r.modes);
  const spoken = [...new Set(r.modes.map((m) => m.mode))];
  return (
    <Card className="mt-4" data-testid="run-llm">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <div>
          <CardTitle className="flex items-center gap-2">
            <MessageSquareText className="size-4 text-primary" /> LLM tokens and cost
          </CardTitle>
          <CardDescription data-testid="run-llm-basis">
            {r.usage.episodes > 0
              ? `Summed over ${r.usage.episodes} finished episode${r.usage.episodes === 1 ? '' : 's'} from the usage the endpoint reported.`
              : 'No finished episode has token usage yet: the endpoint reports it with each reply (a server that sends none leaves these at 0).'}
          </CardDescription>
        </div>
        <div className="flex gap-1">
          {spoken.map((m) => (
            <Badge key={m} variant={m === 'react' ? 'info' : 'outline'} data-testid="run-llm-mode">
              mode {m}
            </Badge>
          ))}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-4">
          <Stat
            label="Prompt tokens"
            testId="run-tokens-prompt"
            value={tokens(r.usage.prompt)}
            hint={<span data-testid="run-tokens-cached">{tokens(r.usage.cached)} cached</span>}
          />
          <Stat
            label="Completion tokens"
            testId="run-tokens-completion"
            value={tokens(r.usage.completion)}
          />
          <Stat
            label="Total tokens"
            testId="run-tokens-total"
            value={tokens(r.usage.prompt + r.usage.completion)}
            hint={
              r.usage.episodes > 0
                ? `${tokens(Math.round((r.usage.prompt + r.usage.completion) / r.usage.episodes))} per episode`
                : undefined
            }
          />
          <Stat
            label="Cost estimate"
            testId="run-cost"
            value={usd(r.cost)}
            hint={
              r.price ? (
                <span data-testid="run-price">
                  {priceLine(r.price)} (
                  {r.priceSource === 'run' ? "the run's price" : 'server default'})
                </span>
              ) : (
                <span data-testid="run-price">
                  No price set: launch with a price per 1M tokens, or set OPENAI_PRICE_PROMPT_PER_M
                  and OPENAI_PRICE_COMPLETION_PER_M.
                </span>
              )
            }
          />
        </div>
        {r.meta.steps > 0 || r.think.steps > 0 ? (
          <ul
            className="flex flex-col gap-1 text-xs text-muted-foreground"
            data-testid="run-llm-kinds"
          >
            {r.meta.steps > 0 ? (
              <li data-testid="run-tokens-meta">
                bpe meta-actions: {usageLine(r.meta)} over {r.meta.steps} step
                {r.meta.steps === 1 ? '' : 's'}
              </li>
            ) : null}
            {r.think.steps > 0 ? (
              <li data-testid="run-tokens-think">
                think steps: {usageLine(r.think)} over {r.think.steps} step
                {r.think.steps === 1 ? '' : 's'}
              </li>
            ) : null}
          </ul>
        ) : null}
        {sentence ? (
          <p className="text-sm" data-testid="run-llm-why">
            {sentence}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
