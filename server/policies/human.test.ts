import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { householdBridge } from '../../bridges/household/index.ts';
import { toy24Bridge } from '../../bridges/toy24/index.ts';
import { createHumanPolicy } from './human.ts';
import { play } from './testing/play.ts';

function io(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (c: Buffer) => {
    printed += c.toString();
  });
  input.end(lines.map((l) => `${l}\n`).join(''));
  return { input, output, printed: () => printed };
}

describe('human policy (terminal)', () => {
  it('plays typed commands through the text tool; help, admissible and typos cost no step', async () => {
    const [task] = await householdBridge.listTasks({ split: 'eval_seen' });
    const t = io([':help', '', ':a', 'look', 'inventory', ':quit']);
    const r = await play(householdBridge, createHumanPolicy({ input: t.input, output: t.output }), {
      taskId: task?.id ?? '',
      seed: 0,
    });
    expect(r.commands).toEqual(['look', 'inventory']);
    expect(r.outcome).toBe('gave_up');
    expect(t.printed()).toContain(`Task: ${task?.goal}`);
    expect(t.printed()).toContain('Plain text is sent as act');
    expect(t.printed()).toContain('go to '); // the admissible list was shown
    expect(t.printed()).toContain('You are not carrying anything.');
  });

  it('accepts `tool {json}`, re-asks on bad JSON, and gives up when input ends', async () => {
    const t = io(['combine {"a": 8, "op": "*"', 'combine {"a": 3, "op": "*", "b": 8}', '4 - 4']);
    const r = await play(toy24Bridge, createHumanPolicy({ input: t.input, output: t.output }), {
      taskId: '3-4-4-8',
      seed: 0,
    });
    expect(r.commands).toEqual(['combine {"a":3,"op":"*","b":8}', '4 - 4']);
    expect(t.printed()).toContain('Not valid JSON');
    expect(r.outcome).toBe('gave_up');
    expect(r.observations.at(-1)).toMatch(/Numbers: 24 0/);
  });
});
