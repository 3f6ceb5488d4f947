'use client';
// An LLM policy's episode and step as the episode page shows them: the episode's tokens and cost
// with the mode it spoke and why; per step, its tokens, the reply's text and the model's reasoning
// (collapsed: it is long, and it was not part of what the agent did).
import { Brain, MessageSquareText } from 'lucide-react';
import type { EpisodeLlm, StepLlm } from '../../contracts/llm.ts';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { costLine, episodeUsage, modeLabel, tokens, usageLine } from './format.ts';
import { useRunLlm } from './run-llm.tsx';

interface EpisodeTokens {
  promptTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  llm: EpisodeLlm | null;
}

export function EpisodeLlmLine({ runId, episode }: { runId: string; episode: EpisodeTokens }) {
  const usage = episodeUsage(episode);
  const report = useRunLlm(runId, false).data;
  const llm = episode.llm;
  if (!usage && !llm) return null;
  const cost = costLine(usage, report?.price ?? null);
  const meta = llm?.byKind.meta;
  const think = llm?.byKind.think;
  return (
    <div
      className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border bg-card px-3 py-2 text-sm"
      data-testid="episode-llm"
    >
      <MessageSquareText className="size-4 text-primary" />
      <span data-testid="episode-tokens">
        {usage ? `${usageLine(usage)} tokens` : 'the endpoint reported no token usage'}
      </span>
      {cost ? (
        <span className="text-muted-foreground" data-testid="episode-cost">
          ≈ {cost}
        </span>
      ) : null}
      {meta ? (
        <span className="text-muted-foreground" data-testid="episode-tokens-meta">
          meta-actions {tokens(meta.prompt + meta.completion)} in {meta.requests} step
          {meta.requests === 1 ? '' : 's'}
        </span>
      ) : null}
      {think ? (
        <span className="text-muted-foreground">
          thinks {tokens(think.prompt + think.completion)} in {think.requests} step
          {think.requests === 1 ? '' : 's'}
        </span>
      ) : null}
      {llm ? (
        <span className="flex items-center gap-2" data-testid="episode-llm-mode">
          <Badge variant={llm.mode === 'react' ? 'info' : 'outline'}>mode {llm.mode}</Badge>
          <span className="text-xs text-muted-foreground">
            {llm.requested === llm.mode
              ? 'as the run asked'
              : llm.reason
                ? `${llm.requested} → ${llm.mode}${llm.inherited ? ' (found earlier in the run)' : llm.switchedAt !== null ? ` at step ${llm.switchedAt}` : ''}: ${llm.reason}`
                : `${llm.requested}: stayed on tool calls`}
          </span>
        </span>
      ) : null}
    </div>
  );
}

export function StepLlmCard({ llm }: { llm: StepLlm | undefined }) {
  if (!llm) return null;
  return (
    <Card data-testid="step-llm">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle className="flex items-center gap-2">
          <MessageSquareText className="size-4 text-primary" /> Model reply
        </CardTitle>
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <Badge variant={llm.mode === 'react' ? 'info' : 'outline'}>{modeLabel(llm.mode)}</Badge>
          {llm.think ? <Badge variant="accent">think</Badge> : null}
          <span data-testid="step-tokens">
            {llm.usage ? `${usageLine(llm.usage)} tokens` : 'no usage reported'}
          </span>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {llm.reply ? (
          <pre
            className="max-h-60 overflow-auto rounded-lg border bg-muted/40 p-3 text-sm whitespace-pre-wrap"
            data-testid="step-reply"
          >
            {llm.reply}
          </pre>
        ) : (
          <p className="text-sm text-muted-foreground">The reply had no text (a tool call only).</p>
        )}
        {llm.reasoning ? (
          <details className="rounded-lg border" data-testid="step-reasoning">
            <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 text-sm text-muted-foreground">
              <Brain className="size-3.5" /> Reasoning ({tokens(llm.reasoning.length)} characters
              {llm.usage?.reasoning ? `, ${tokens(llm.usage.reasoning)} tokens` : ''})
            </summary>
            <pre className="max-h-80 overflow-auto border-t bg-muted/40 p-3 text-sm whitespace-pre-wrap">
              {llm.reasoning}
            </pre>
          </details>
        ) : null}
      </CardContent>
    </Card>
  );
}
