import { describe, expect, it } from 'vitest';
import { specToGraph } from './model.ts';
import { actionLabel, textAction, wrappedSpec } from './stage.ts';

describe('stage set-up actions', () => {
  it('shows a one-string action as its text and any other as a call', () => {
    expect(actionLabel({ name: 'act', args: { command: 'open drawer 1' } })).toBe('open drawer 1');
    expect(actionLabel({ name: 'edit', args: { file: 'a.js', line: 3 } })).toBe(
      'edit {"file":"a.js","line":3}',
    );
  });

  it('types a command through the text tool, household act{command} until one is known', () => {
    expect(textAction(undefined, 'look')).toEqual({ name: 'act', args: { command: 'look' } });
    expect(textAction(null, 'look')).toEqual({ name: 'act', args: { command: 'look' } });
    expect(textAction({ name: 'search', arg: 'query' }, 'red mug')).toEqual({
      name: 'search',
      args: { query: 'red mug' },
    });
  });

  it('finds what a Stage wraps, and nothing when its input is unplugged', () => {
    const graph = specToGraph({
      version: 1,
      env: {
        type: 'stage',
        actions: [],
        env: { type: 'base', bridge: 'household', task: 'pick-mug-1' },
      },
    });
    const stage = graph.nodes.find((n) => n.kind === 'stage')!;
    expect(wrappedSpec(graph, stage.id)).toEqual({
      ok: true,
      spec: { version: 1, env: { type: 'base', bridge: 'household', task: 'pick-mug-1' } },
    });
    expect(wrappedSpec({ ...graph, edges: [] }, stage.id)).toBeUndefined();
  });
});
