import { describe, expect, it } from 'vitest';
import type { ContractRule } from '../../contracts/contract-rules.ts';
import { type HarnessSpec, HarnessSpecSchema } from '../../contracts/spec.ts';
import { lineDiff, specDiff } from './diff.ts';
import { autoLayout } from './layout.ts';
import {
  apply,
  applyCommand,
  canConnect,
  type Graph,
  graphToSpec,
  hasCycle,
  initHistory,
  layoutInput,
  NODE_SIZE,
  redo,
  specToGraph,
  subtreeSpec,
  undo,
} from './model.ts';

const at = { x: 0, y: 0 };

const mugSpec: HarnessSpec = {
  version: 1,
  env: {
    type: 'chain',
    mode: 'branch',
    first: {
      type: 'contract',
      code: 'export function filterObservation(o) { return o; }',
      env: {
        type: 'stage',
        actions: [{ name: 'act', args: { command: 'go to drawer 1' } }],
        env: { type: 'base', bridge: 'household', task: 'pick-mug-1' },
      },
    },
    second: { type: 'base', bridge: 'household', task: 'heat-potato-2' },
    remedial: { type: 'base', bridge: 'toy24', task: '1-2-3-4' },
    when: 'state.done',
    carryContext: true,
  },
};

function small(): Graph {
  return {
    nodes: [
      { id: 'b', kind: 'base', position: at, data: { bridge: 'toy24', task: '1-2-3-4' } },
      { id: 'b2', kind: 'base', position: at, data: { bridge: 'toy24', task: '4-4-6-6' } },
      { id: 's', kind: 'stage', position: at, data: { actions: [] } },
      { id: 'c', kind: 'contract', position: at, data: { code: '' } },
      { id: 'ch', kind: 'chain', position: at, data: { mode: 'sequential' } },
      { id: 'out', kind: 'output', position: at, data: {} },
    ],
    edges: [],
  };
}

describe('spec <-> graph', () => {
  it('round-trips a Stage intro and a branch verdict rule', () => {
    const spec: HarnessSpec = {
      version: 1,
      env: {
        type: 'chain',
        mode: 'branch',
        verdict: 'remedial-decides',
        first: {
          type: 'stage',
          intro: 'state',
          actions: [{ name: 'act', args: { command: 'go to fridge 1' } }],
          env: { type: 'base', bridge: 'household', task: 'train-0001' },
        },
        second: { type: 'base', bridge: 'household', task: 'train-0002' },
        remedial: { type: 'base', bridge: 'household', task: 'train-0003' },
      },
    };
    const graph = specToGraph(spec);
    expect(graph.nodes.find((n) => n.id === 'env.first')?.data).toMatchObject({ intro: 'state' });
    expect(graphToSpec(graph)).toEqual({ ok: true, spec });
    expect(
      specDiff(spec, {
        ...spec,
        env: { ...spec.env, verdict: 'all-legs' } as HarnessSpec['env'],
      }).map((c) => c.field),
    ).toEqual(['verdict']);
  });

  it('round-trips Contract rules exactly: rules only, code only, both', () => {
    const base = { type: 'base', bridge: 'household', task: 'train-0001' } as const;
    const rules: ContractRule[] = [
      { kind: 'block', pattern: '^clean (.+?) with ', reason: 'Hold the $1 first.' },
      { kind: 'block', pattern: '^go to', reason: 'Stay.', unless: { state: 'a.b', equals: '' } },
      { kind: 'rewrite', pattern: 'mug', replacement: 'cup' },
      { kind: 'truncate', max: 2, unit: 'sentences', keep: '\n\nYour task is to:' },
      { kind: 'truncate', max: 400 },
      { kind: 'cap', steps: 30 },
      { kind: 'feedback', text: 'check {action}', to: 'hint', when: '^Nothing happens\\.$' },
      { kind: 'feedback', text: ' (be brief)', to: 'append' },
    ];
    for (const env of [
      { type: 'contract', rules, env: base },
      { type: 'contract', code: 'function filterAction(a) { return a; }', env: base },
      { type: 'contract', rules, code: '', env: base },
      { type: 'contract', rules: [], env: base },
    ] as HarnessSpec['env'][]) {
      const spec: HarnessSpec = { version: 1, env };
      const back = graphToSpec(specToGraph(spec));
      expect(back).toStrictEqual({ ok: true, spec });
      if (back.ok) expect(HarnessSpecSchema.parse(back.spec)).toStrictEqual(spec);
    }
    const edited = { ...rules[5]!, steps: 31 } as ContractRule;
    const changed: HarnessSpec = {
      version: 1,
      env: { type: 'contract', rules: rules.map((r, i) => (i === 5 ? edited : r)), env: base },
    };
    const diff = specDiff({ version: 1, env: { type: 'contract', rules, env: base } }, changed);
    expect(diff.map((c) => c.field)).toEqual(['rules']);
  });

  it('round-trips a spec with every node kind exactly', () => {
    const graph = specToGraph(mugSpec);
    const back = graphToSpec(graph);
    expect(back).toEqual({ ok: true, spec: mugSpec });
    if (back.ok) expect(HarnessSpecSchema.parse(back.spec)).toEqual(mugSpec);
  });

  it('names nodes by their spec paths, as the engine names layers', () => {
    const ids = specToGraph(mugSpec)
      .nodes.map((n) => n.id)
      .sort();
    expect(ids).toEqual(
      [
        'env',
        'env.first',
        'env.first.env',
        'env.first.env.env',
        'env.remedial',
        'env.second',
        'output',
      ].sort(),
    );
  });

  it('keeps leg order: swapping first and second changes the spec', () => {
    const g = specToGraph(mugSpec);
    const swapped: Graph = {
      ...g,
      edges: g.edges.map((e) =>
        e.target === 'env' && e.targetHandle === 'first'
          ? { ...e, targetHandle: 'second' }
          : e.target === 'env' && e.targetHandle === 'second'
            ? { ...e, targetHandle: 'first' }
            : e,
      ),
    };
    const r = graphToSpec(swapped);
    expect(r.ok).toBe(true);
    if (r.ok && r.spec.env.type === 'chain')
      expect(r.spec.env.first).toEqual(mugSpec.env.type === 'chain' ? mugSpec.env.second : null);
  });

  it('reports missing inputs and loose nodes instead of a spec', () => {
    let g = small();
    g = applyCommand(g, {
      type: 'connect',
      edge: { source: 's', target: 'out', targetHandle: 'env' },
    });
    const r = graphToSpec(g);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      const text = r.issues.map((i) => i.message).join('\n');
      expect(text).toContain("Stage: connect its 'env' input");
      expect(text).toContain('Contract is not connected');
    }
  });

  it('requires exactly one output', () => {
    const g = small();
    g.nodes = g.nodes.filter((n) => n.kind !== 'output');
    const r = graphToSpec(g);
    expect(r.ok).toBe(false);
  });
});

describe('canConnect', () => {
  it('accepts a wrapper over an environment', () => {
    expect(canConnect(small(), { source: 'b', target: 's', targetHandle: 'env' })).toEqual({
      ok: true,
    });
  });

  it('allows one input per Stage/Contract port and two or three for Chain', () => {
    let g = small();
    g = applyCommand(g, {
      type: 'connect',
      edge: { source: 'b', target: 's', targetHandle: 'env' },
    });
    expect(canConnect(g, { source: 'b2', target: 's', targetHandle: 'env' }).ok).toBe(false);
    expect(canConnect(g, { source: 'b2', target: 'ch', targetHandle: 'remedial' }).ok).toBe(true);
    expect(canConnect(g, { source: 'b2', target: 's', targetHandle: 'first' }).ok).toBe(false);
  });

  it('refuses a second consumer of one environment (a harness is a tree)', () => {
    let g = small();
    g = applyCommand(g, {
      type: 'connect',
      edge: { source: 'b', target: 's', targetHandle: 'env' },
    });
    const r = canConnect(g, { source: 'b', target: 'c', targetHandle: 'env' });
    expect(r.ok).toBe(false);
  });

  it('refuses cycles and self loops', () => {
    let g = small();
    g = applyCommand(g, {
      type: 'connect',
      edge: { source: 's', target: 'c', targetHandle: 'env' },
    });
    expect(canConnect(g, { source: 'c', target: 's', targetHandle: 'env' })).toEqual({
      ok: false,
      reason: 'that connection would make a cycle',
    });
    expect(canConnect(g, { source: 'ch', target: 'ch', targetHandle: 'first' }).ok).toBe(false);
    expect(hasCycle(g)).toBe(false);
    expect(
      hasCycle({
        ...g,
        edges: [...g.edges, { id: 'x', source: 'c', target: 's', targetHandle: 'env' }],
      }),
    ).toBe(true);
  });

  it('gives the output no outgoing port', () => {
    expect(canConnect(small(), { source: 'out', target: 's', targetHandle: 'env' }).ok).toBe(false);
  });
});

describe('history', () => {
  it('undoes and redoes commands; a rejected connect leaves no history entry', () => {
    let h = initHistory(small());
    h = apply(h, { type: 'connect', edge: { source: 'b', target: 's', targetHandle: 'env' } });
    h = apply(h, { type: 'move', positions: { s: { x: 10, y: 20 } } });
    const before = h;
    h = apply(h, { type: 'connect', edge: { source: 'b', target: 'c', targetHandle: 'env' } });
    expect(h).toBe(before);
    h = undo(h);
    expect(h.present.nodes.find((n) => n.id === 's')?.position).toEqual(at);
    h = undo(h);
    expect(h.present.edges).toHaveLength(0);
    h = redo(redo(h));
    expect(h.present.edges).toHaveLength(1);
    expect(h.present.nodes.find((n) => n.id === 's')?.position).toEqual({ x: 10, y: 20 });
  });

  it('merges quick edits of one field into one undo step', () => {
    let h = initHistory(small());
    const code = (c: string) => ({ type: 'update' as const, id: 'c', data: { code: c } });
    h = apply(h, code('a'), { coalesceKey: 'c.code', now: 0 });
    h = apply(h, code('ab'), { coalesceKey: 'c.code', now: 500 });
    h = apply(h, code('abc'), { coalesceKey: 'c.code', now: 900 });
    h = apply(h, code('abcd'), { coalesceKey: 'c.code', now: 5000 });
    expect(h.past).toHaveLength(2);
    h = undo(h);
    expect(h.present.nodes.find((n) => n.id === 'c')?.data).toEqual({ code: 'abc' });
    h = undo(h);
    expect(h.present.nodes.find((n) => n.id === 'c')?.data).toEqual({ code: '' });
  });

  it('removing a node removes its edges', () => {
    let h = initHistory(specToGraph(mugSpec));
    h = apply(h, { type: 'remove', ids: ['env.first'] });
    expect(h.present.edges.some((e) => e.source === 'env.first' || e.target === 'env.first')).toBe(
      false,
    );
  });
});

describe('subtreeSpec', () => {
  it('gives the spec a node stands for', () => {
    const r = subtreeSpec(specToGraph(mugSpec), 'env.first.env');
    expect(r).toEqual({
      ok: true,
      spec: {
        version: 1,
        env:
          mugSpec.env.type === 'chain' && mugSpec.env.first.type === 'contract'
            ? mugSpec.env.first.env
            : null,
      },
    });
  });
});

describe('layout', () => {
  it('feeds dagre every node and edge, and places wrappers right of what they wrap', () => {
    const g = specToGraph(mugSpec);
    const input = layoutInput(g);
    expect(input.nodes).toHaveLength(g.nodes.length);
    expect(input.edges).toHaveLength(g.edges.length);
    const pos = autoLayout(g);
    expect(pos['env.first.env.env']!.x).toBeLessThan(pos['env.first.env']!.x);
    expect(pos.env!.x).toBeLessThan(pos.output!.x);
    expect(pos['env.first']!.y).toBeLessThan(pos['env.second']!.y);
  });
});

/** A stack `depth` layers deep on each leg of a chain (Stage and Contract alternating). */
function deepStack(depth: number): HarnessSpec {
  const leg = (task: string) => {
    let env: HarnessSpec['env'] = { type: 'base', bridge: 'household', task };
    for (let i = 0; i < depth; i++) {
      env =
        i % 2 === 0
          ? { type: 'contract', code: 'export function filterAction(a) { return a; }', env }
          : { type: 'stage', actions: [], env };
    }
    return env;
  };
  return {
    version: 1,
    env: {
      type: 'chain',
      mode: 'branch',
      first: leg('a'),
      second: { type: 'chain', mode: 'sequential', first: leg('b'), second: leg('c') },
      remedial: leg('d'),
    },
  };
}

describe('auto-layout never overlaps nodes', () => {
  it.each([1, 4, 9])('deep stacks of %i layers per leg', (depth) => {
    const g = specToGraph(deepStack(depth));
    const pos = autoLayout(g);
    const boxes = g.nodes.map((n) => ({ id: n.id, ...pos[n.id]!, ...NODE_SIZE[n.kind] }));
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.x + a.width <= b.x ||
          b.x + b.width <= a.x ||
          a.y + a.height <= b.y ||
          b.y + b.height <= a.y;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    }
  });
});

describe('version diff', () => {
  it('marks changed fields, code lines and added legs', () => {
    const b: HarnessSpec = structuredClone(mugSpec);
    if (b.env.type !== 'chain' || b.env.first.type !== 'contract') throw new Error('shape');
    b.env.mode = 'sequential';
    b.env.first.code =
      'export function filterObservation(o) { return { text: o.text.slice(0, 80) }; }';
    delete b.env.remedial;
    const changes = specDiff(mugSpec, b);
    expect(changes.find((c) => c.field === 'mode')).toMatchObject({
      before: '"branch"',
      after: '"sequential"',
    });
    expect(
      changes.find((c) => c.field === 'code')?.lines?.filter((l) => l.op !== 'same'),
    ).toHaveLength(2);
    expect(changes.find((c) => c.path === 'env.remedial')?.kind).toBe('removed');
    expect(specDiff(mugSpec, mugSpec)).toEqual([]);
  });

  it('line diff keeps common lines', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'del', text: 'b' },
      { op: 'add', text: 'x' },
      { op: 'same', text: 'c' },
    ]);
  });
});
