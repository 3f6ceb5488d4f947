// What a scripted web agent reads off a WebArena accessibility-tree observation, and the moves it
// makes with WebArena's text actions: find an element by role and name, scroll until it shows,
// follow pagination, type, go to a URL, stop. Only the observation is read (never the state view).
import type { Action, Observation } from '../../../bridges/core/types.ts';
import type { AgentIo } from '../code-repair/coroutine.ts';

export interface El {
  id: number;
  role: string;
  name: string;
  line: string;
}

const LINE = /^\t*\[(\d+)\] (\S+) (?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/;

export function elements(text: string): El[] {
  const out: El[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const name = (m[3] ?? m[4] ?? '').replace(/\\(.)/g, '$1');
    out.push({ id: Number(m[1]), role: m[2] as string, name, line: line.trim() });
  }
  return out;
}

export function urlOf(text: string): string {
  return /\nURL: (\S+)\s*$/.exec(text)?.[1] ?? '';
}

export const cmd = (command: string): Action => ({ name: 'act', args: { command } });

/** A scripted browser: the last observation and the moves. Every move costs one step. */
export class Browser {
  obs: Observation;
  constructor(
    private readonly io: AgentIo,
    first: Observation,
    private readonly budget: number,
  ) {
    this.obs = first;
  }

  get text(): string {
    return this.obs.text;
  }
  get url(): string {
    return urlOf(this.obs.text);
  }
  get stepsLeft(): number {
    return this.budget - this.io.steps;
  }
  els(): El[] {
    return elements(this.obs.text);
  }
  find(role: string | RegExp, name: string | RegExp): El | undefined {
    const r = typeof role === 'string' ? (x: string) => x === role : (x: string) => role.test(x);
    const n = typeof name === 'string' ? (x: string) => x === name : (x: string) => name.test(x);
    return this.els().find((e) => r(e.role) && n(e.name));
  }
  async act(command: string, note?: string): Promise<Observation> {
    this.obs = await this.io.act(cmd(command), note);
    return this.obs;
  }
  async click(el: El, note?: string): Promise<void> {
    await this.act(`click [${el.id}]`, note);
  }
  async type(el: El, text: string, enter: boolean, note?: string): Promise<void> {
    await this.act(`type [${el.id}] [${text}] [${enter ? 1 : 0}]`, note);
  }
  async goto(url: string): Promise<void> {
    await this.act(`goto [${url}]`);
  }
  async stop(answer: string, note?: string): Promise<string> {
    await this.act(`stop [${answer}]`, note);
    return `stopped: ${answer}`;
  }

  /** Scrolls down (at most `max` screens) until the element shows; back to the top when it never does. */
  async reveal(role: string | RegExp, name: string | RegExp, max = 4): Promise<El | undefined> {
    let hit = this.find(role, name);
    let scrolled = 0;
    while (!hit && scrolled < max && this.stepsLeft > 2) {
      const before = this.text;
      await this.act('scroll [down]');
      scrolled += 1;
      hit = this.find(role, name);
      if (this.text === before) break;
    }
    return hit;
  }

  /** Looks for the element on this page and the next ones (scrolling each, following "Next page"). */
  async hunt(role: string | RegExp, name: string | RegExp, pages = 4): Promise<El | undefined> {
    for (let p = 0; p < pages && this.stepsLeft > 2; p++) {
      const hit = await this.reveal(role, name);
      if (hit) return hit;
      const next = await this.reveal('link', 'Next page', 1);
      if (!next) return undefined;
      await this.click(next);
    }
    return undefined;
  }
}

/** The first number (with separators) in a text, as written. */
export function firstNumber(text: string): string | undefined {
  return /-?\d[\d,]*/.exec(text)?.[0];
}
