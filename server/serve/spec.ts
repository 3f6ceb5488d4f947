// What `harness serve --spec` (and the studio's "Serve to a trainer") can name: a spec file,
// `bridge:task`, a bare bridge (reset's task_id then picks the task) or `harness:<id>[@version]`, a
// saved harness version (the latest when no version is given).
import '#server-only';
import { existsSync } from 'node:fs';
import type { BridgeResolver } from '../../bridges/core/types.ts';
import { firstBase, type HarnessSpec } from '../../contracts/spec.ts';
import type { Db } from '../db/index.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { parseSpec } from '../harness/index.ts';
import { getHarness } from '../harnesses/library.ts';

export interface ServedSpec {
  spec: HarnessSpec;
  label: string;
  /** A bare bridge: reset's task_id picks the task. */
  bridgeMode: boolean;
  harnessVersionId?: string;
}

/** A saved harness version (`@N`; the latest without). */
export async function harnessVersionSpec(db: Db, ref: string): Promise<ServedSpec> {
  const m = /^([^@\s]+)(?:@(\d+))?$/.exec(ref);
  if (!m) throw new InvalidInputError(`'harness:${ref}' is not harness:<id>[@version]`);
  const harness = await getHarness(db, m[1]!);
  const wanted = m[2] === undefined ? undefined : Number(m[2]);
  const version =
    wanted === undefined
      ? harness.versions.at(-1)
      : harness.versions.find((v) => v.version === wanted);
  if (!version)
    throw new NotFoundError(
      `harness '${harness.id}' has no version ${wanted} (versions: ${harness.versions.map((v) => v.version).join(', ')})`,
    );
  return {
    spec: version.spec,
    label: `harness ${harness.name} v${version.version}`,
    bridgeMode: false,
    harnessVersionId: version.id,
  };
}

export async function resolveServedSpec(
  arg: string,
  o: { bridges: BridgeResolver; loadFile: (path: string) => HarnessSpec; db?: () => Promise<Db> },
): Promise<ServedSpec> {
  const text = arg.trim();
  if (text.startsWith('harness:')) {
    if (!o.db) throw new InvalidInputError('harness:<id> needs the database');
    return harnessVersionSpec(await o.db(), text.slice('harness:'.length));
  }
  if (existsSync(text)) {
    const spec = o.loadFile(text);
    const base = firstBase(spec.env);
    return { spec, label: `${text} (${base.bridge}:${base.task})`, bridgeMode: false };
  }
  if (!text.includes(':') && !text.endsWith('.json')) {
    const bridge = await o.bridges.get(text);
    if (!bridge)
      throw new NotFoundError(
        `'${text}' is neither a spec file nor a bridge (known: ${o.bridges.names().join(', ')})`,
      );
    const [first] = await bridge.listTasks();
    if (!first) throw new NotFoundError(`bridge '${text}' has no tasks`);
    return {
      spec: parseSpec({ version: 1, env: { type: 'base', bridge: bridge.name, task: first.id } }),
      label: `${bridge.name} (task_id picks the task; default ${first.id})`,
      bridgeMode: true,
    };
  }
  const spec = o.loadFile(text);
  const base = firstBase(spec.env);
  return { spec, label: `${base.bridge}:${base.task}`, bridgeMode: false };
}
