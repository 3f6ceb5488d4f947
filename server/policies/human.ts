// `human`: the researcher plays in the terminal. Lines come from a readable stream (stdin by default,
// any stream in tests); typos and help requests are answered locally and never cost a step.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { JsonObject, Observation, StepInfo, ToolSpec } from '../../bridges/core/types.ts';
import type {
  AgentSession,
  Policy,
  PolicyContext,
  PolicyDecision,
  PolicyDescriptor,
} from './types.ts';

export const humanDescriptor: PolicyDescriptor = {
  id: 'human',
  kind: 'human',
  description:
    'You play: each observation is printed and you type a command (the text tool) or `tool {json}`; `:help`, `:admissible`, `:quit`.',
};

export interface HumanPolicyOptions {
  input?: Readable;
  output?: Writable;
}

export function createHumanPolicy(io: HumanPolicyOptions = {}): Policy {
  return {
    descriptor: humanDescriptor,
    async start(context: PolicyContext): Promise<AgentSession> {
      return new HumanSession(context, io.input ?? process.stdin, io.output ?? process.stdout);
    },
  };
}

class HumanSession implements AgentSession {
  private readonly lines: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private ended = false;
  private readonly rl;

  constructor(
    private readonly context: PolicyContext,
    input: Readable,
    private readonly out: Writable,
  ) {
    this.rl = createInterface({ input, terminal: false });
    this.rl.on('line', (line) => {
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(line);
      } else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      this.waiting?.(undefined);
      this.waiting = undefined;
    });
    this.print(`Task: ${context.task.goal}\nType :help for help.\n`);
  }

  private print(text: string): void {
    this.out.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  private next(): Promise<string | undefined> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  async act(observation: Observation, info: StepInfo): Promise<PolicyDecision> {
    this.print(`\n${observation.text}`);
    for (;;) {
      this.out.write('> ');
      const line = await this.next();
      if (line === undefined) return { kind: 'give_up', reason: 'input closed' };
      const text = line.trim();
      if (text === '') continue;
      if (text === ':quit' || text === ':q' || text === ':give-up')
        return { kind: 'give_up', reason: 'the player quit' };
      if (text === ':help') {
        this.print(this.help());
        continue;
      }
      if (text === ':admissible' || text === ':a') {
        const list = info.admissibleCommands;
        this.print(
          Array.isArray(list) && list.length > 0
            ? list.join('\n')
            : '(no admissible commands given)',
        );
        continue;
      }
      const parsed = this.parse(text);
      if (typeof parsed === 'string') {
        this.print(parsed);
        continue;
      }
      return { kind: 'act', action: parsed };
    }
  }

  /** An action, or a message explaining why the line is not one. */
  private parse(text: string): { name: string; args: JsonObject } | string {
    const tools = this.context.tools;
    const m = /^([A-Za-z_][\w-]*)\s*(\{.*)$/s.exec(text);
    if (m?.[1] && m[2] && tools.some((t) => t.name === m[1])) {
      try {
        const args: unknown = JSON.parse(m[2]);
        if (typeof args !== 'object' || args === null || Array.isArray(args))
          return 'Arguments must be a JSON object.';
        return { name: m[1], args: args as JsonObject };
      } catch (error) {
        return `Not valid JSON: ${(error as Error).message}`;
      }
    }
    const textTool = this.context.textTool ?? singleStringTool(tools);
    if (textTool) return { name: textTool.name, args: { [textTool.arg]: text } };
    return `Type a tool call as \`name {json}\`. Tools: ${tools.map((t) => t.name).join(', ')}`;
  }

  private help(): string {
    const tools = this.context.tools.map((t) => `  ${t.name} — ${t.description}`).join('\n');
    const textTool = this.context.textTool;
    return [
      textTool ? `Plain text is sent as ${textTool.name} {"${textTool.arg}": <text>}.` : '',
      'A tool call: name {json arguments}.',
      'Tools:',
      tools,
      ':admissible (:a) lists admissible commands; :quit (:q) gives up.',
    ]
      .filter(Boolean)
      .join('\n');
  }

  async close(): Promise<void> {
    this.rl.close();
  }
}

/** A tool whose only required parameter is a string can take plain text. */
function singleStringTool(tools: ToolSpec[]): { name: string; arg: string } | undefined {
  if (tools.length !== 1 || !tools[0]) return undefined;
  const params = tools[0].parameters;
  const props = params.properties;
  const required = params.required;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return undefined;
  const keys = Array.isArray(required) ? required : Object.keys(props);
  const key = keys[0];
  if (keys.length !== 1 || typeof key !== 'string') return undefined;
  const prop = props[key];
  if (prop && typeof prop === 'object' && !Array.isArray(prop) && prop.type === 'string') {
    return { name: tools[0].name, arg: key };
  }
  return undefined;
}
