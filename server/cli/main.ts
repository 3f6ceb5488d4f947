// `harness <command>`: parses flags with node:util parseArgs, runs one command, and maps every
// error to exactly one `harness: <message>` line on stderr with a non-zero exit status.
import { parseArgs } from 'node:util';
import type { BridgeRegistry } from '../../bridges/index.ts';
import type { Services } from '../compose.ts';
import type { RolloutServices } from '../compose-rollouts.ts';
import { type Config, config as readConfig } from '../config.ts';
import type { DbHandle } from '../db/index.ts';
import { connectionFailure } from '../db/retry.ts';
import { KindedError } from '../errors.ts';
import {
  type CliEnv,
  type CliIO,
  type Command,
  type CommandContext,
  UsageError,
} from './command.ts';
import { commands, summaries } from './commands/index.ts';
import { processIO } from './output.ts';

export { processIO };

export const EXIT = { ok: 0, failure: 1, usage: 2, internal: 70 } as const;

async function loadCommand(name: string): Promise<Command> {
  const load = commands[name];
  if (!load) {
    throw new UsageError(
      `unknown command '${name}' (commands: ${Object.keys(commands).join(', ')}; see harness --help)`,
    );
  }
  return (await load()).command;
}

/** The command list, from the static summaries: no command module is loaded for it. */
function globalHelp(): string {
  const lines = [
    'Usage: harness <command> [options]   (harness <command> --help for details)',
    '',
    'Commands:',
  ];
  for (const name of Object.keys(commands)) {
    lines.push(`  ${name.padEnd(10)} ${summaries[name] ?? ''}`);
  }
  return `${lines.join('\n')}\n`;
}

function commandHelp(c: Command): string {
  const opts = Object.entries(c.options).map(([name, o]) => {
    const short = o.short ? `-${o.short}, ` : '';
    return `  ${short}--${name}${o.type === 'string' ? ' <value>' : ''}`;
  });
  return `${c.summary}\n\nUsage: ${c.usage}\n${opts.length ? `\nOptions:\n${opts.join('\n')}\n` : ''}  -h, --help\n`;
}

/** parseArgs' messages are long and mention internals; keep the part a user needs. */
function parseArgsMessage(error: Error): string {
  const first = error.message.split('\n')[0] ?? error.message;
  return first
    .replace(/\. To specify a positional argument.*$/, '')
    .replace(/^Unknown option/, 'unknown option');
}

function isParseArgsError(error: unknown): error is Error & { code: string } {
  if (!(error instanceof Error)) return false;
  const code: unknown = (error as unknown as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** A negative number given as an option's value (`-5`, `-0.5`): parseArgs reads it as an option. */
const NEGATIVE_NUMBER = /^-(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * `-k -5` and `--seed -3` as parseArgs accepts them (`--episodes=-5`, `--seed=-3`): a negative
 * number after an option that takes a value is that value. The command then validates it and says
 * what is wrong ("--episodes must be at least 1") instead of "argument is ambiguous".
 */
export function joinNegativeValues(args: string[], options: Command['options']): string[] {
  const byShort = new Map(
    Object.entries(options).flatMap(([name, o]) => (o.short ? [[o.short, name] as const] : [])),
  );
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const name = arg.startsWith('--')
      ? arg.slice(2)
      : /^-\w$/.test(arg)
        ? byShort.get(arg[1] as string)
        : undefined;
    const value = args[i + 1];
    if (
      name &&
      options[name]?.type === 'string' &&
      value !== undefined &&
      NEGATIVE_NUMBER.test(value)
    ) {
      out.push(`--${name}=${value}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Services composed on a command's first request, closed once the command is done. The database
 * may be opened ahead of them (`openDatabase`): PGlite's start (file reads, wasm compiled off the
 * main thread) then overlaps the loading of the services' modules.
 */
function lazyServices(env: CliEnv, cfg: () => Config) {
  let database: Promise<DbHandle> | undefined;
  const openDatabase = (): Promise<DbHandle> => {
    if (!database) {
      database = (async () => {
        const c = cfg();
        // PGlite's files are read and its wasm compiled while Prisma's client modules load.
        if (!c.DATABASE_URL) (await import('../db/pglite.ts')).prewarmPGlite();
        const { configuredTarget, openDb } = await import('../db/index.ts');
        return openDb(configuredTarget(c), { retry: { maxMs: c.DB_RETRY_MS } });
      })();
      // A failure surfaces where the services are awaited; a command that fails first drops it.
      database.catch(() => undefined);
    }
    return database;
  };
  let opened: Promise<Services> | undefined;
  const services: CommandContext['services'] = (o = {}) => {
    opened ??= (async () => {
      // Loaded on demand: commands that need no database start without it.
      if (env.compose) return env.compose({ config: cfg(), ...o });
      const db = openDatabase();
      const { composeServices } = await import('../compose.ts');
      return composeServices({ config: cfg(), db: await db, ...o });
    })();
    return opened;
  };
  let lean: Promise<RolloutServices> | undefined;
  const rolloutServices: CommandContext['rolloutServices'] = (o = {}) => {
    if (env.compose || opened) return services(o);
    lean ??= (async () => {
      const db = openDatabase();
      const { composeRollouts } = await import('../compose-rollouts.ts');
      return composeRollouts({ config: cfg(), db: await db, ...o });
    })();
    return lean;
  };
  const close = async () => {
    for (const composed of [opened, lean]) {
      const s = await composed?.catch(() => undefined);
      await s?.close();
    }
    // Handed to compose as already open, so compose leaves closing it to us.
    const handle = await database?.catch(() => undefined);
    await handle?.close().catch((e: unknown) => console.error('db:', e));
  };
  const prestart = env.compose ? undefined : () => void openDatabase();
  return { services, rolloutServices, openDatabase: prestart, close };
}

export async function main(
  argv: string[],
  io: CliIO = processIO,
  env: CliEnv = {},
): Promise<number> {
  const cfg = () => env.config ?? readConfig();
  const { services, rolloutServices, openDatabase, close } = lazyServices(env, cfg);
  let registry: BridgeRegistry | undefined;
  try {
    const [name, ...rest] = argv;
    if (name === undefined) throw new UsageError('missing command (see harness --help)');
    if (name === '--help' || name === '-h' || name === 'help') {
      io.out(globalHelp());
      return EXIT.ok;
    }
    const command = await loadCommand(name);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(commandHelp(command));
      return EXIT.ok;
    }
    const parsed = parseArgs({
      args: joinNegativeValues(rest, command.options),
      options: command.options,
      allowPositionals: true,
      strict: true,
    });
    const range = command.positionals ?? { min: 0, max: 0, names: '' };
    if (parsed.positionals.length < range.min) {
      throw new UsageError(`${name}: missing ${range.names} (usage: ${command.usage})`);
    }
    if (parsed.positionals.length > range.max) {
      throw new UsageError(
        `${name}: unexpected argument '${parsed.positionals[range.max]}' (usage: ${command.usage})`,
      );
    }
    // Loaded here, not at the top: `harness --help` and usage errors start without the bridges.
    const { bridgesFromConfig } = await import('../bridges.ts');
    return await command.run({
      values: parsed.values,
      positionals: parsed.positionals,
      io,
      config: cfg(),
      bridges: () => {
        registry ??= bridgesFromConfig(cfg());
        return registry;
      },
      services,
      rolloutServices,
      ...(openDatabase ? { openDatabase } : {}),
    });
  } catch (error) {
    if (isParseArgsError(error)) {
      io.err(`harness: ${oneLine(parseArgsMessage(error))}\n`);
      return EXIT.usage;
    }
    // Every error of the taxonomy carries a message meant for the user; anything else is a bug.
    if (error instanceof KindedError) {
      io.err(`harness: ${oneLine(error.message)}\n`);
      return error.kind === 'usage' ? EXIT.usage : EXIT.failure;
    }
    // A database that stayed away longer than DB_RETRY_MS is the machinery's failure, not a bug.
    const unreachable = connectionFailure(error);
    if (unreachable) {
      io.err(`harness: database unavailable (${oneLine(unreachable)})\n`);
      return EXIT.failure;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`harness: internal error: ${oneLine(message)}\n`);
    return EXIT.internal;
  } finally {
    await close();
  }
}
