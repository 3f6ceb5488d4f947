'use client';
import type { HarnessSpec } from '../../server/harness/spec.ts';
// Named immutable versions: load one into the editor, or diff two (node by node, code line by line).
import { specDiff } from '../harness-graph/diff.ts';
import { useUrlState } from '../hooks/use-url-state.ts';
import { ago } from '../runs/format.ts';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { Label, Select } from '../ui/input.tsx';

type Version = RouterOutputs['harnesses']['byId']['versions'][number];

export function VersionsPanel({
  versions,
  current,
}: {
  versions: Version[];
  current: Version | undefined;
}) {
  const url = useUrlState();
  const [from = '', to = ''] = (url.get('diff') ?? '').split('..');
  const a = versions.find((v) => String(v.version) === from);
  const b = versions.find((v) => String(v.version) === to);
  const changes = a && b ? specDiff(a.spec as HarnessSpec, b.spec as HarnessSpec) : null;

  return (
    <Card data-testid="versions-panel">
      <CardHeader>
        <CardTitle>Versions</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <ul className="flex flex-col divide-y rounded-lg border">
          {[...versions].reverse().map((v) => (
            <li
              key={v.id}
              className={cn(
                'flex items-center gap-2 px-3 py-2 text-sm',
                v.id === current?.id && 'bg-accent',
              )}
            >
              <Badge variant="outline">v{v.version}</Badge>
              <button
                type="button"
                className="truncate text-left hover:underline"
                data-testid="version-load"
                onClick={() => url.set({ version: v.version, node: null })}
              >
                {v.name}
              </button>
              {v.approvals[0] ? (
                <Badge variant={v.approvals[0].decision === 'approve' ? 'success' : 'danger'}>
                  {v.approvals[0].decision === 'approve' ? 'approved' : 'rejected'}
                </Badge>
              ) : null}
              <span className="ml-auto text-xs text-muted-foreground">
                {ago(new Date(v.createdAt).toISOString())}
              </span>
            </li>
          ))}
        </ul>
        {versions.length > 1 ? (
          <div className="flex flex-col gap-2">
            <div className="flex items-end gap-2">
              <div className="flex flex-col gap-1">
                <Label>Diff from</Label>
                <Select
                  data-testid="diff-from"
                  value={from}
                  onChange={(e) =>
                    url.set({ diff: `${e.target.value}..${to || versions.at(-1)?.version}` })
                  }
                >
                  <option value="">—</option>
                  {versions.map((v) => (
                    <option key={v.id} value={v.version}>
                      v{v.version}
                    </option>
                  ))}
                </Select>
              </div>
              <div className="flex flex-col gap-1">
                <Label>to</Label>
                <Select
                  data-testid="diff-to"
                  value={to}
                  onChange={(e) =>
                    url.set({ diff: `${from || versions[0]?.version}..${e.target.value}` })
                  }
                >
                  <option value="">—</option>
                  {versions.map((v) => (
                    <option key={v.id} value={v.version}>
                      v{v.version}
                    </option>
                  ))}
                </Select>
              </div>
            </div>
            {changes ? (
              <div data-testid="version-diff" className="flex flex-col gap-2">
                {changes.length === 0 ? (
                  <p className="text-sm text-muted-foreground">No difference.</p>
                ) : null}
                {changes.map((c) => (
                  <div
                    key={`${c.path}:${c.field ?? c.kind}`}
                    className="rounded-md border p-2 text-xs"
                    data-testid="diff-change"
                  >
                    <div className="mb-1 flex items-center gap-2">
                      <code>{c.path}</code>
                      <Badge
                        variant={
                          c.kind === 'added'
                            ? 'success'
                            : c.kind === 'removed'
                              ? 'danger'
                              : 'warning'
                        }
                      >
                        {c.kind === 'field' ? c.field : c.kind}
                      </Badge>
                    </div>
                    {c.lines ? (
                      <pre className="max-h-56 overflow-auto font-mono">
                        {c.lines.map((l, i) => (
                          <div
                            // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positional
                            key={i}
                            className={cn(
                              l.op === 'add' && 'bg-success-soft text-success',
                              l.op === 'del' && 'bg-danger-soft text-danger',
                            )}
                          >
                            {l.op === 'add' ? '+ ' : l.op === 'del' ? '- ' : '  '}
                            {l.text}
                          </div>
                        ))}
                      </pre>
                    ) : (
                      <div>
                        {c.before !== undefined ? (
                          <span className="text-danger line-through">{c.before || '(none)'}</span>
                        ) : null}{' '}
                        {c.after !== undefined ? (
                          <span className="text-success">{c.after || '(none)'}</span>
                        ) : null}
                      </div>
                    )}
                  </div>
                ))}
              </div>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
