// `harness --help` prints the static summaries; they must say what each command's module says.
import { describe, expect, it } from 'vitest';
import { commands, summaries } from './index.ts';

describe('command summaries', () => {
  it('lists every command once, with the summary its module declares', async () => {
    expect(Object.keys(summaries).sort()).toEqual(Object.keys(commands).sort());
    for (const [name, load] of Object.entries(commands)) {
      const { command } = await load();
      expect(command.name, name).toBe(name);
      expect(summaries[name], name).toBe(command.summary);
    }
  });
});
