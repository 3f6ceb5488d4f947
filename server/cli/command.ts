// The CLI's command contract. A command is one file under commands/ exporting `command`, listed in
// commands/index.ts. Commands return an exit code and throw typed domain errors (server/errors.ts);
// main.ts turns errors into one `harness: <message>` line.
import type { ParseArgsConfig } from 'node:util';
import type { Json } from '../../bridges/core/types.ts';
import type { BridgeRegistry } from '../../bridges/index.ts';
import type { ComposeOptions, Services } from '../compose.ts';
import type { RolloutServices } from '../compose-rollouts.ts';
import type { Config } from '../config.ts';
import { InvalidInputError } from '../errors.ts';

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Interactive input (play); process.stdin in the real CLI. */
  input: NodeJS.ReadableStream;
  /** Interactive output for prompts; process.stdout in the real CLI. */
  output: NodeJS.WritableStream;
}

export interface CommandContext {
  values: OptionValues;
  positionals: string[];
  io: CliIO;
  config: Config;
  /** The built-in bridges plus the configured environment servers (no database needed). */
  bridges(): BridgeRegistry;
  /**
   * The composed services: the database is opened on the first call (commands that need none never
   * open it) and everything is released when the command ends. Later calls return the same services.
   */
  services(o?: Pick<ComposeOptions, 'engine' | 'queueName'>): Promise<Services>;
  /**
   * Only the rollouts part of the services (compose-rollouts.ts), for a command that needs nothing
   * else: the studio's, rigger's and accounts' modules are never loaded. A command uses either this
   * or `services()`, not both; when the services are already composed (or a test composes its
   * own), their rollouts part is returned.
   */
  rolloutServices(o?: Pick<ComposeOptions, 'engine' | 'queueName'>): Promise<RolloutServices>;
  /**
   * Starts opening the database that `services()` will use, without waiting (absent when a test
   * composes its own services). A command that will need the services calls it as soon as its
   * flags are valid, so the database starts while the services' modules load.
   */
  openDatabase?(): void;
}

/** How main() builds what commands use; tests hand in a configuration or a composition of their own. */
export interface CliEnv {
  config?: Config;
  compose?: (o: ComposeOptions) => Promise<Services>;
}

export interface Command {
  name: string;
  /** One line for `harness --help`. */
  summary: string;
  /** Usage line(s) and option notes for `harness <name> --help`. */
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Allowed number of positionals (default none). */
  positionals?: { min: number; max: number; names: string };
  run(ctx: CommandContext): Promise<number>;
}

/** A bad flag or argument: exit status 2, like other command-line tools. */
export class UsageError extends InvalidInputError {
  override readonly kind = 'usage';
  override name = 'UsageError';
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function flag(values: OptionValues, name: string): boolean {
  return values[name] === true;
}

export function intOption(values: OptionValues, name: string, fallback: number): number {
  const v = stringOption(values, name);
  if (v === undefined) return fallback;
  if (!/^-?\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v))) {
    throw new UsageError(`--${name} must be an integer, got '${v}'`);
  }
  return Number(v);
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * `--policy-option key=value` (repeatable) as policy options: a value that reads as JSON is that
 * JSON (`maxTokens=256`, `keepReasoning=true`), anything else the text itself (`mode=react`).
 */
export function policyOptionsFlag(
  values: OptionValues,
  name = 'policy-option',
): Record<string, Json> | undefined {
  const raw = values[name];
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  if (list.length === 0) return undefined;
  const out: Record<string, Json> = {};
  for (const item of list) {
    const m = typeof item === 'string' ? /^\s*([A-Za-z_]\w*)\s*=(.*)$/s.exec(item) : null;
    if (!m?.[1]) throw new UsageError(`--${name} must look like key=value, got '${String(item)}'`);
    const text = (m[2] ?? '').trim();
    let value: Json = text;
    try {
      value = JSON.parse(text) as Json;
    } catch {
      // Plain text.
    }
    out[m[1]] = value;
  }
  return out;
}
