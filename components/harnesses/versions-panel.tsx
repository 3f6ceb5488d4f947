'use client';
// Named immutable versions: load one into the editor, or diff two (node by node, code line by line).
import { type SpecChange, specDiff } from '../harness-graph/diff.ts';
import { useUrlState } from '../hooks/use-url-state.ts';
import { ago } from '../runs/format.ts';
import type { RouterOutputs } from '../trpc/types.ts';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { cn } from '../ui/cn.ts';
import { Field } from '../ui/field.tsx';
import { Select } from '../ui/input.tsx';
import { decisionLabel, diffRangeWith, parseDiffRange } from './model.ts';

type Version = RouterOutputs['harnesses']['byId']['versions'][number];

export function VersionsPanel({
  versions,
  current,
}: {
  versions: Version[];
  current: Version | undefined;
}) {
  const url = useUrlState();
  const range = parseDiffRange(url.get('diff'));
  const [from, to] = range;
  const a = versions.find((v) => String(v.version) === from);
  const b = versions.find((v) => String(v.version) === to);
  const changes = a && b ? specDiff(a.spec, b.spec) : null;

  return (
    <Card data-testid="versions-panel">
      <CardHeader>
        <CardTitle>Versions</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <VersionList
          versions={versions}
          current={current}
          onLoad={(version) => url.set({ version, node: null })}
        />
        {versions.length > 1 ? (
          <div className="flex flex-col gap-2">
            <div className="flex items-end gap-2">
              <VersionSelect
                label="Diff from"
                testId="diff-from"
                value={from}
                versions={versions}
                onPick={(v) => url.set({ diff: diffRangeWith('from', v, range, versions) })}
              />
              <VersionSelect
                label="to"
                testId="diff-to"
                value={to}
                versions={versions}
                onPick={(v) => url.set({ diff: diffRangeWith('to', v, range, versions) })}
              />
            </div>
            {changes ? <VersionDiff changes={changes} /> : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function VersionList({
  versions,
  current,
  onLoad,
}: {
  versions: Version[];
  current: Version | undefined;
  onLoad: (version: number) => void;
}) {
  return (
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
            onClick={() => onLoad(v.version)}
          >
            {v.name}
          </button>
          {v.gate.current ? (
            <Badge
              variant={v.gate.state === 'approved' ? 'success' : 'danger'}
              data-testid="version-state"
              title={`by ${v.gate.current.by}${v.gate.current.reason ? `: ${v.gate.current.reason}` : ''}`}
            >
              {decisionLabel(v.gate.current.decision)}
            </Badge>
          ) : null}
          <span className="ml-auto text-xs text-muted-foreground">
            {ago(new Date(v.createdAt).toISOString())}
          </span>
        </li>
      ))}
    </ul>
  );
}

function VersionSelect({
  label,
  testId,
  value,
  versions,
  onPick,
}: {
  label: string;
  testId: string;
  value: string;
  versions: Version[];
  onPick: (version: string) => void;
}) {
  return (
    <Field label={label}>
      <Select data-testid={testId} value={value} onChange={(e) => onPick(e.target.value)}>
        <option value="">—</option>
        {versions.map((v) => (
          <option key={v.id} value={v.version}>
            v{v.version}
          </option>
        ))}
      </Select>
    </Field>
  );
}

const KIND_TONE = {
  added: 'success',
  removed: 'danger',
  type: 'warning',
  field: 'warning',
} as const;

function VersionDiff({ changes }: { changes: SpecChange[] }) {
  return (
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
            <Badge variant={KIND_TONE[c.kind]}>{c.kind === 'field' ? c.field : c.kind}</Badge>
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
  );
}
