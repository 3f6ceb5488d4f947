// Differences between two HarnessSpecs (two named versions), node by node along their paths, with a
// line diff for hook code — what the version diff view shows.
import type { HarnessNode, HarnessSpec } from '../../contracts/spec.ts';

export type LineOp = { op: 'same' | 'add' | 'del'; text: string };

export interface SpecChange {
  path: string;
  kind: 'added' | 'removed' | 'type' | 'field';
  field?: string;
  before?: string;
  after?: string;
  /** For hook code: the line diff. */
  lines?: LineOp[];
}

/** Line diff by longest common subsequence (hook code is at most a few hundred lines). */
export function lineDiff(a: string, b: string): LineOp[] {
  const x = a.split('\n');
  const y = b.split('\n');
  const n = x.length;
  const m = y.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] =
        x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: LineOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      out.push({ op: 'same', text: x[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      out.push({ op: 'del', text: x[i++]! });
    } else {
      out.push({ op: 'add', text: y[j++]! });
    }
  }
  while (i < n) out.push({ op: 'del', text: x[i++]! });
  while (j < m) out.push({ op: 'add', text: y[j++]! });
  return out;
}

function summarize(node: HarnessNode): string {
  switch (node.type) {
    case 'base':
      return `${node.bridge}:${node.task}`;
    case 'stage':
      return `stage (${node.actions.length} actions)`;
    case 'contract':
      return 'contract';
    case 'chain':
      return `chain (${node.mode})`;
  }
}

function children(node: HarnessNode): [string, HarnessNode | undefined][] {
  switch (node.type) {
    case 'base':
      return [];
    case 'stage':
    case 'contract':
      return [['env', node.env]];
    case 'chain':
      return [
        ['first', node.first],
        ['second', node.second],
        ['remedial', node.remedial],
      ];
  }
}

export function specDiff(a: HarnessSpec, b: HarnessSpec): SpecChange[] {
  const changes: SpecChange[] = [];
  const walk = (x: HarnessNode | undefined, y: HarnessNode | undefined, path: string) => {
    if (!x && !y) return;
    if (!x) {
      changes.push({ path, kind: 'added', after: summarize(y!) });
      return;
    }
    if (!y) {
      changes.push({ path, kind: 'removed', before: summarize(x) });
      return;
    }
    if (x.type !== y.type) {
      changes.push({ path, kind: 'type', before: summarize(x), after: summarize(y) });
      return;
    }
    const field = (name: string, before: unknown, after: unknown) => {
      const sb = before === undefined ? '' : JSON.stringify(before);
      const sa = after === undefined ? '' : JSON.stringify(after);
      if (sb !== sa) changes.push({ path, kind: 'field', field: name, before: sb, after: sa });
    };
    if (x.type === 'base' && y.type === 'base') {
      field('bridge', x.bridge, y.bridge);
      field('task', x.task, y.task);
    } else if (x.type === 'stage' && y.type === 'stage') {
      const before = x.actions.map((act) => JSON.stringify(act)).join('\n');
      const after = y.actions.map((act) => JSON.stringify(act)).join('\n');
      if (before !== after) {
        changes.push({ path, kind: 'field', field: 'actions', lines: lineDiff(before, after) });
      }
      field('intro', x.intro, y.intro);
    } else if (x.type === 'contract' && y.type === 'contract') {
      const before = (x.rules ?? []).map((rule) => JSON.stringify(rule)).join('\n');
      const after = (y.rules ?? []).map((rule) => JSON.stringify(rule)).join('\n');
      if (before !== after) {
        changes.push({ path, kind: 'field', field: 'rules', lines: lineDiff(before, after) });
      }
      if (x.code !== y.code) {
        const lines = lineDiff(x.code ?? '', y.code ?? '');
        changes.push({ path, kind: 'field', field: 'code', lines });
      }
    } else if (x.type === 'chain' && y.type === 'chain') {
      field('mode', x.mode, y.mode);
      field('when', x.when, y.when);
      field('verdict', x.verdict, y.verdict);
      field('carryContext', x.carryContext, y.carryContext);
    }
    const cx = children(x);
    const cy = children(y);
    for (let i = 0; i < cx.length; i++) walk(cx[i]![1], cy[i]![1], `${path}.${cx[i]![0]}`);
  };
  walk(a.env, b.env, 'env');
  return changes;
}
