import { readFileSync } from 'node:fs';
import { type Command, flag, intOption, json, stringOption } from '../command.ts';
import { runStepEpisode } from '../episode.ts';
import { episodeClient, isolationOptions } from '../isolation.ts';
import { loadSpec, readActionsFile } from '../spec-input.ts';

export const command: Command = {
  name: 'step',
  summary:
    'Reset a harness (spec file or bridge:task), replay actions from a file, print every step as JSON.',
  usage:
    'harness step --spec FILE|bridge:task --seed N --actions FILE|- [--state] [--json] [--in-process]\n' +
    '  actions: one per line; a line starting with { is a JSON action {"name", "args"}, any other line is\n' +
    '  plain text for the bridge\'s text tool (toy24: "8 / 3"; household: "go to drawer 1"); # comments.\n' +
    '  The episode runs in a worker thread so a runaway hook is stopped; --in-process skips that.',
  options: {
    spec: { type: 'string' },
    seed: { type: 'string' },
    actions: { type: 'string' },
    state: { type: 'boolean' },
    json: { type: 'boolean' },
    ...isolationOptions,
  },
  async run({ values, io, bridges }) {
    const spec = loadSpec(stringOption(values, 'spec'));
    const seed = intOption(values, 'seed', 0);
    const lines = readActionsFile(stringOption(values, 'actions'), () => readFileSync(0, 'utf8'));
    const result = await runStepEpisode(episodeClient(values, bridges()), {
      spec,
      seed,
      lines,
      state: flag(values, 'state'),
    });
    if (flag(values, 'json')) io.out(json(result));
    else {
      io.out(`${result.initial.observation.text}\n`);
      for (const s of result.steps) {
        const blocked = s.blocked !== undefined ? `[blocked: ${s.blocked}] ` : '';
        io.out(`\n> ${JSON.stringify(s.action)}\n${blocked}${s.observation.text}\n`);
      }
      const ev = result.evaluation;
      if (ev)
        io.out(
          `\n${ev.success ? 'SUCCESS' : 'FAILURE'} score ${ev.score} after ${result.agentSteps} agent steps\n`,
        );
    }
    if (result.harnessError) {
      io.err(`harness: the episode ended with a harness error: ${result.harnessError.message}\n`);
      return 1;
    }
    return 0;
  },
};
