// Interactive play in the terminal: the human is the policy. Reads plain text (for the bridge's text
// tool) or JSON actions, one per line; works with piped input too.
import { createInterface } from 'node:readline';
import type { StepInfo, ToolSpec } from '../../../bridges/core/types.ts';
import type { TextTool } from '../../harness/index.ts';
import { type CliIO, type Command, intOption, stringOption } from '../command.ts';
import type { EpisodeClient, EpisodeEnd, StepOutput } from '../episode.ts';
import { episodeClient, isolationOptions } from '../isolation.ts';
import { type ActionLine, loadSpec, parseActionLines } from '../spec-input.ts';

const MAX_LISTED = 40;

function describeTools(tools: ToolSpec[]): string {
  return tools
    .map((t) => {
      const props = t.parameters.properties;
      const args =
        props && typeof props === 'object' && !Array.isArray(props)
          ? Object.keys(props).join(', ')
          : '';
      return `  ${t.name} {${args}}: ${t.description}`;
    })
    .join('\n');
}

function describeAdmissible(info: StepInfo): string {
  const commands = info.admissibleCommands;
  if (!Array.isArray(commands) || commands.length === 0) return '';
  const shown = commands.slice(0, MAX_LISTED).join(' | ');
  const more =
    commands.length > MAX_LISTED ? ` | … (${commands.length - MAX_LISTED} more, :all to list)` : '';
  return `Admissible: ${shown}${more}\n`;
}

const HELP =
  'Type an action: plain text for the text tool, or JSON {"name": ..., "args": {...}}.\n' +
  'Commands: :tools  :state  :all (every admissible command)  :help  :quit\n';

export const command: Command = {
  name: 'play',
  summary: 'Play a harness (spec file or bridge:task) yourself in the terminal.',
  usage:
    'harness play --spec FILE|bridge:task [--seed N] [--in-process]\n' +
    '  Type plain text for the text tool or a JSON action; :help lists the extra commands.',
  options: { spec: { type: 'string' }, seed: { type: 'string' }, ...isolationOptions },
  async run({ values, io, bridges }) {
    const spec = loadSpec(stringOption(values, 'spec'));
    const seed = intOption(values, 'seed', 0);
    const client = episodeClient(values, bridges());
    const rl = createInterface({ input: io.input, terminal: false });
    // Take the iterator now: lines read while the episode starts up would otherwise be dropped.
    const lines = rl[Symbol.asyncIterator]();
    try {
      const start = await client.open({ spec, seed, state: false });
      let info: StepInfo = start.initial.info;
      let tools = start.tools;
      let textTool: TextTool | undefined = start.textTool;
      const { task } = start;
      io.out(`Task ${task.id} (${task.type}): ${task.goal}\nTools:\n${describeTools(tools)}\n`);
      if (textTool) io.out(`Plain text goes to ${textTool.name} {${textTool.arg}}.\n`);
      io.out(`${HELP}\n${start.initial.observation.text}\n${describeAdmissible(info)}`);
      let ended = false;
      let broken = false;
      const prompt = () => io.output.write('> ');
      prompt();
      for await (const raw of { [Symbol.asyncIterator]: () => lines }) {
        const line = raw.trim();
        if (line === ':quit' || line === ':q') break;
        if (await meta(line, io, client, tools, info)) {
          prompt();
          continue;
        }
        const entry = readEntry(line, io, textTool);
        if (!entry) {
          prompt();
          continue;
        }
        const outcome = await client.step(entry, false);
        if ('harnessError' in outcome) {
          io.out(
            `The episode ended with a harness error (not your fault): ${outcome.harnessError.message}\n`,
          );
          ended = true;
          broken = true;
          break;
        }
        const { step } = outcome;
        info = step.info;
        tools = outcome.tools;
        textTool = outcome.textTool;
        io.out(`${describeStep(step)}\n${describeAdmissible(info)}`);
        if (step.terminated || step.truncated) {
          ended = true;
          break;
        }
        prompt();
      }
      io.out(describeEnd(await client.finish(), ended));
      return broken ? 1 : 0;
    } finally {
      rl.close();
      await client.close();
    }
  },
};

/** A typed line as an action, or undefined (with the reason shown) when it is not one. */
function readEntry(
  line: string,
  io: CliIO,
  textTool: TextTool | undefined,
): ActionLine | undefined {
  let entry: ActionLine | undefined;
  try {
    [entry] = parseActionLines(line, 'input');
  } catch (error) {
    io.out(`${(error as Error).message}\n`);
    return undefined;
  }
  if (entry && !('action' in entry) && !textTool) {
    io.out('This environment has no text tool: type a JSON action.\n');
    return undefined;
  }
  return entry;
}

function describeStep(step: StepOutput): string {
  const flags = [
    step.blocked !== undefined ? `blocked: ${step.blocked}` : '',
    step.info.invalid ? 'invalid' : '',
    step.reward !== 0 ? `reward ${step.reward}` : '',
  ].filter(Boolean);
  return `${step.observation.text}${flags.length ? `  [${flags.join('; ')}]` : ''}`;
}

function describeEnd(end: EpisodeEnd | undefined, ended: boolean): string {
  if (!end) return '\nNo evaluation: the episode was stopped by a harness error.\n';
  const { evaluation } = end;
  const metrics = Object.entries(evaluation.metrics)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return (
    `\n${ended ? 'Episode over' : 'Stopped'}: ${evaluation.success ? 'SUCCESS' : 'not solved'} (score ${evaluation.score}` +
    `${metrics ? `; ${metrics}` : ''}) after ${end.agentSteps} agent steps.\n`
  );
}

async function meta(
  line: string,
  io: CliIO,
  client: EpisodeClient,
  tools: ToolSpec[],
  info: StepInfo,
): Promise<boolean> {
  switch (line) {
    case '':
      return true;
    case ':help':
      io.out(HELP);
      return true;
    case ':tools':
      io.out(`${describeTools(tools)}\n`);
      return true;
    case ':state':
      io.out(`${JSON.stringify(await client.state(), null, 2)}\n`);
      return true;
    case ':all':
      io.out(`${(info.admissibleCommands ?? []).join('\n')}\n`);
      return true;
    default:
      return false;
  }
}
