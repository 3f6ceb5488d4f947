// The `openenv` bridge: any OpenEnv server (meta-pytorch/OpenEnv: TextArena, BrowserGym, coding,
// Terminal-Bench 2, …) becomes a Bridge. createOpenEnvBridge() checks GET /health and GET /schema
// once (and reads /metadata when the server has it); every episode is then one `/ws` session.
// README.md has the configuration and what is mapped to what.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { KindedError } from '../core/errors.ts';
import { filterTasks, restoredEnv } from '../core/helpers.ts';
import {
  type Bridge,
  EnvInfraError,
  type EnvSnapshot,
  type JsonObject,
  type JsonSchema,
  type TaskFilter,
  type TaskInfo,
} from '../core/types.ts';
import { OpenEnvEnv, type OpenEnvServer, SUCCESS_RULES, type SuccessRule } from './env.ts';
import { HealthReplyZ, JsonObjectZ, MetadataReplyZ, SchemaReplyZ } from './protocol.ts';
import { textToolOf, toolFromActionSchema } from './render.ts';

export { OpenEnvEnv, SUCCESS_RULES, type SuccessRule } from './env.ts';
export { OPENENV_TOOL, renderObservation } from './render.ts';

export interface OpenEnvBridgeOptions {
  /** Bridge name in the registry. */
  name: string;
  /** Base URL of the OpenEnv server, e.g. http://127.0.0.1:8000. */
  url: string;
  /** Per-request limit (default 10 s; the session's reset gets at least 30 s). */
  timeoutMs?: number;
  /** A JSON file `{ "<task id>": { <reset kwargs> } }`; without one there is one task, `default`. */
  tasksFile?: string;
  /** The observation field shown to the agent as text; default: a rendering of every field. */
  observationField?: string;
  /** How success is decided: done with a positive final reward (default) or reward sum. */
  success?: SuccessRule;
}

/** A configuration that cannot work (a tasks file that is missing or malformed). */
export class OpenEnvConfigError extends KindedError {
  readonly kind = 'invalid';
  constructor(message: string) {
    super(message);
    this.name = 'OpenEnvConfigError';
  }
}

export const DEFAULT_TASK = 'default';
const SPLIT = 'default';

const TasksFileZ = z.record(
  z.string().regex(/^[\w.@:-]{1,128}$/, 'task ids are 1-128 of [A-Za-z0-9_.@:-]'),
  JsonObjectZ,
);

function readTasks(
  name: string,
  file: string,
  envName: string,
): Map<string, { info: TaskInfo; kwargs: JsonObject }> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new OpenEnvConfigError(
      `openenv env '${name}': tasks file '${file}' cannot be read as JSON (${(error as Error).message})`,
    );
  }
  const parsed = TasksFileZ.safeParse(data);
  if (!parsed.success || Object.keys(parsed.data).length === 0) {
    const issue = parsed.success ? undefined : parsed.error.issues[0];
    throw new OpenEnvConfigError(
      `openenv env '${name}': tasks file '${file}' must be an object of task id → reset kwargs${issue ? ` (${issue.path.join('.')}: ${issue.message})` : ', with at least one task'}`,
    );
  }
  return new Map(
    Object.entries(parsed.data).map(([id, kwargs]) => [
      id,
      {
        kwargs,
        info: {
          id,
          type: 'openenv',
          goal: `${envName}, reset with ${JSON.stringify(kwargs)}`,
          split: SPLIT,
          meta: { resetKwargs: kwargs },
        },
      },
    ]),
  );
}

async function getJson<S extends z.ZodType>(
  where: string,
  url: string,
  schema: S,
  timeoutMs: number,
): Promise<z.infer<S>> {
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const e = error as { name?: string; cause?: { code?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      throw new EnvInfraError(`${where} timed out after ${timeoutMs} ms`, { cause: error });
    throw new EnvInfraError(
      `${where}: cannot reach the server (${e.cause?.code ?? (error as Error).message})`,
      { cause: error },
    );
  }
  if (status >= 400) throw new EnvInfraError(`${where}: HTTP ${status}: ${text.slice(0, 200)}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EnvInfraError(
      `${where}: the reply is not JSON (${JSON.stringify(text.slice(0, 80))})`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new EnvInfraError(
      `${where}: the reply does not follow OpenEnv's protocol (${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'})`,
    );
  }
  return parsed.data;
}

/** Attaches an OpenEnv server: checks /health and /schema, reads the tasks file. */
export async function createOpenEnvBridge(options: OpenEnvBridgeOptions): Promise<Bridge> {
  let base: URL;
  try {
    base = new URL(options.url);
  } catch {
    throw new OpenEnvConfigError(`openenv env '${options.name}': '${options.url}' is not a URL`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new OpenEnvConfigError(`openenv env '${options.name}': '${options.url}' must be http(s)`);
  const url = base.href.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  const where = (route: string) => `openenv env '${options.name}' (${url}): GET ${route}`;
  const health = await getJson(where('/health'), `${url}/health`, HealthReplyZ, timeoutMs);
  if (health.status === 'unhealthy')
    throw new EnvInfraError(`${where('/health')}: the server says it is unhealthy`);
  const schema = await getJson(where('/schema'), `${url}/schema`, SchemaReplyZ, timeoutMs);
  const metadata = await getJson(
    where('/metadata'),
    `${url}/metadata`,
    MetadataReplyZ,
    timeoutMs,
  ).catch(() => undefined);
  const envName =
    metadata?.name ||
    (typeof schema.action.title === 'string' ? schema.action.title : options.name);
  const tool = toolFromActionSchema(schema.action as JsonSchema, envName);
  const textTool = textToolOf(tool);
  const stateProps = (schema.state.properties ?? {}) as JsonObject;
  const { episode_id: _drop, ...keptProps } = stateProps;
  const stateSchema: JsonSchema = { ...(schema.state as JsonSchema), properties: keptProps };
  const tasks = options.tasksFile
    ? readTasks(options.name, options.tasksFile, envName)
    : new Map([
        [
          DEFAULT_TASK,
          {
            kwargs: {},
            info: {
              id: DEFAULT_TASK,
              type: 'openenv',
              goal: `${envName}, from its default reset`,
              split: SPLIT,
            } satisfies TaskInfo,
          },
        ],
      ]);
  const server: OpenEnvServer = {
    name: options.name,
    url,
    timeoutMs,
    tool,
    stateSchema,
    tasks,
    success: options.success ?? 'final-reward',
    ...(options.observationField ? { observationField: options.observationField } : {}),
  };
  const infos = [...tasks.values()].map((t) => t.info);
  const create = async () => new OpenEnvEnv(server);
  const description =
    `OpenEnv server '${envName}' at ${url}` +
    (metadata?.description ? `: ${metadata.description}` : '') +
    ` (one /ws session per episode; success: ${SUCCESS_RULES[server.success]})`;
  return {
    name: options.name,
    description,
    splits: [SPLIT],
    ...(textTool ? { textTool } : {}),
    async listTasks(filter?: TaskFilter) {
      return filterTasks(infos, filter);
    },
    async getTask(taskId: string) {
      return infos.find((t) => t.id === taskId);
    },
    tools: () => [tool],
    stateSchema: () => stateSchema,
    create,
    async fromState(snapshot: EnvSnapshot) {
      return restoredEnv(await create(), snapshot);
    },
    origin: {
      protocol: 'openenv',
      url,
      actionSchema: schema.action as JsonSchema,
      observationSchema: schema.observation as JsonSchema,
    },
  };
}
