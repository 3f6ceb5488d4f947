// Interactive play in the terminal: the human is the policy. Reads plain text (for the bridge's text
// tool) or JSON actions, one per line; works with piped input too.
import { createInterface } from 'node:readline';
import type { Action, StepInfo, ToolSpec } from '../../../bridges/core/types.ts';
import { HarnessCodeError } from '../../errors.ts';
import { createHarness } from '../../harness/index.ts';
import { type CliIO, type Command, intOption, stringOption } from '../command.ts';
import { loadSpec, parseActionLines } from '../spec-input.ts';

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
  usage: 'harness play --spec FILE|bridge:task [--seed N]',
  options: { spec: { type: 'string' }, seed: { type: 'string' } },
  async run({ values, io }) {
    const spec = loadSpec(stringOption(values, 'spec'));
    const seed = intOption(values, 'seed', 0);
    const harness = await createHarness(spec);
    const rl = createInterface({ input: io.input, terminal: false });
    try {
      const reset = await harness.reset({ seed });
      const task = harness.task();
      let info: StepInfo = reset.info;
      io.out(
        `Task ${task.id} (${task.type}): ${task.goal}\nTools:\n${describeTools(harness.tools())}\n`,
      );
      const text = harness.textTool();
      if (text) io.out(`Plain text goes to ${text.name} {${text.arg}}.\n`);
      io.out(`${HELP}\n${reset.observation.text}\n${describeAdmissible(info)}`);
      let ended = false;
      const prompt = () => io.output.write('> ');
      prompt();
      for await (const raw of rl) {
        const line = raw.trim();
        if (line === ':quit' || line === ':q') break;
        const handled = meta(line, io, harness, info);
        if (handled) {
          prompt();
          continue;
        }
        let action: Action;
        try {
          const [entry] = parseActionLines(line, 'input');
          if (!entry) {
            prompt();
            continue;
          }
          if ('action' in entry) action = entry.action;
          else {
            const tool = harness.textTool();
            if (!tool) {
              io.out('This environment has no text tool: type a JSON action.\n');
              prompt();
              continue;
            }
            action = { name: tool.name, args: { [tool.arg]: entry.text } };
          }
        } catch (error) {
          io.out(`${(error as Error).message}\n`);
          prompt();
          continue;
        }
        try {
          const result = await harness.step(action);
          info = result.info;
          const flags = [
            result.record.blocked !== undefined ? `blocked: ${result.record.blocked}` : '',
            result.info.invalid ? 'invalid' : '',
            result.reward !== 0 ? `reward ${result.reward}` : '',
          ].filter(Boolean);
          io.out(
            `${result.observation.text}${flags.length ? `  [${flags.join('; ')}]` : ''}\n${describeAdmissible(info)}`,
          );
          if (result.terminated || result.truncated) {
            ended = true;
            break;
          }
        } catch (error) {
          if (!(error instanceof HarnessCodeError)) throw error;
          io.out(`The episode ended with a harness error (not your fault): ${error.message}\n`);
          ended = true;
          break;
        }
        prompt();
      }
      const evaluation = await harness.evaluate();
      const metrics = Object.entries(evaluation.metrics)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      io.out(
        `\n${ended ? 'Episode over' : 'Stopped'}: ${evaluation.success ? 'SUCCESS' : 'not solved'} (score ${evaluation.score}` +
          `${metrics ? `; ${metrics}` : ''}) after ${harness.agentSteps} agent steps.\n`,
      );
      return 0;
    } finally {
      rl.close();
      await harness.close();
    }
  },
};

function meta(
  line: string,
  io: CliIO,
  harness: { tools(): ToolSpec[]; getEnvState(): unknown },
  info: StepInfo,
): boolean {
  switch (line) {
    case '':
      return true;
    case ':help':
      io.out(HELP);
      return true;
    case ':tools':
      io.out(`${describeTools(harness.tools())}\n`);
      return true;
    case ':state':
      io.out(`${JSON.stringify(harness.getEnvState(), null, 2)}\n`);
      return true;
    case ':all':
      io.out(`${(info.admissibleCommands ?? []).join('\n')}\n`);
      return true;
    default:
      return false;
  }
}
