'use client';
// "Serve to a trainer": the harness version as an OpenEnv environment. The command that serves it
// from a terminal, the URL a trainer connects to, a Python snippet with OpenEnv's GenericEnvClient,
// and serving from this studio process with its live session count.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Radio, Square } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { useBlockedReason } from '../hooks/use-access.ts';
import { shortId } from '../runs/format.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { countOf } from '../ui/plural.ts';
import { pythonSnippet, serveCommand } from './serve-model.ts';

function CodeBlock({ text, testId, wrap }: { text: string; testId: string; wrap?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="relative">
      <pre
        className={`overflow-x-auto rounded-lg border bg-muted px-3 py-2 pr-10 font-mono text-xs leading-relaxed ${wrap ? 'whitespace-pre-wrap wrap-anywhere' : ''}`}
        data-testid={testId}
      >
        {text}
      </pre>
      <Button
        variant="ghost"
        size="icon"
        className="absolute top-1 right-1 size-7"
        aria-label="Copy"
        onClick={() => {
          void navigator.clipboard?.writeText(text).then(() => setCopied(true));
        }}
      >
        <Copy className={copied ? 'text-success' : undefined} />
      </Button>
    </div>
  );
}

export function ServePanel({
  harnessId,
  version,
  spec,
}: {
  harnessId: string;
  version: { id: string; version: number };
  spec: HarnessSpec;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const blocked = useBlockedReason('researcher', 'serve a harness');
  const [record, setRecord] = useState(false);
  const key = { harnessVersionId: version.id };
  const served = useQuery({
    ...trpc.serving.byVersion.queryOptions(key),
    // The live session count while it is served.
    refetchInterval: (q) => (q.state.data ? 1_000 : false),
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.serving.byVersion.queryKey(key) });
  const start = useMutation(trpc.serving.start.mutationOptions({ onSuccess: refresh }));
  const stop = useMutation(trpc.serving.stop.mutationOptions({ onSuccess: refresh }));
  const endpoint = served.data ?? null;
  const url = endpoint?.url ?? 'http://127.0.0.1:8000';
  const command = serveCommand(harnessId, version.version, 8000);
  return (
    <Card data-testid="serve-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Radio className="size-4" /> Serve to a trainer
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <p className="text-muted-foreground">
          v{version.version} as an OpenEnv environment: trainers that speak OpenEnv (TRL, verl,
          SkyRL …) reset and step it over the WebSocket <code>/ws</code>; rewards and done come from
          the harnessed environment, the verdict rides on the last observation’s metadata.
        </p>
        <div>
          <div className="mb-1 text-xs font-medium text-muted-foreground">From a terminal</div>
          <CodeBlock text={command} testId="serve-command" wrap />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-xs font-medium text-muted-foreground">URL</span>
          <code className="rounded bg-muted px-2 py-0.5 font-mono text-xs" data-testid="serve-url">
            {url}
          </code>
          {endpoint ? (
            <Badge variant="success" data-testid="serve-live">
              served here · {countOf(endpoint.sessions, 'session')} open ·{' '}
              {countOf(endpoint.episodes, 'episode')} · {countOf(endpoint.steps, 'step')}
            </Badge>
          ) : (
            <span className="text-xs text-muted-foreground">(with the command above)</span>
          )}
        </div>
        <div>
          <div className="mb-1 text-xs font-medium text-muted-foreground">
            Python (OpenEnv’s GenericEnvClient)
          </div>
          <CodeBlock text={pythonSnippet(url, spec)} testId="serve-python" />
        </div>
        <ErrorNote error={start.error ?? stop.error} />
        <div className="flex flex-wrap items-center gap-3">
          {endpoint ? (
            <Button
              variant="outline"
              onClick={() => stop.mutate(key)}
              disabled={stop.isPending || blocked !== undefined}
              data-testid="serve-stop"
            >
              <Square /> Stop serving
            </Button>
          ) : (
            <>
              <Button
                onClick={() => start.mutate({ ...key, record })}
                disabled={start.isPending || blocked !== undefined}
                title={blocked}
                data-testid="serve-start"
              >
                <Radio /> Serve from this studio
              </Button>
              <label className="flex items-center gap-1.5 text-xs">
                <input
                  type="checkbox"
                  checked={record}
                  onChange={(e) => setRecord(e.target.checked)}
                  data-testid="serve-record"
                />
                record every episode as a run
              </label>
            </>
          )}
          {endpoint && endpoint.runIds.length > 0 ? (
            <span className="text-xs text-muted-foreground" data-testid="serve-runs">
              recorded in{' '}
              {endpoint.runIds.map((id, i) => (
                <span key={id}>
                  {i > 0 ? ', ' : ''}
                  <Link href={`/runs/${id}`} className="font-mono text-primary hover:underline">
                    {shortId(id)}
                  </Link>
                </span>
              ))}
            </span>
          ) : null}
        </div>
        {blocked ? <p className="text-xs text-muted-foreground">{blocked}</p> : null}
      </CardContent>
    </Card>
  );
}
