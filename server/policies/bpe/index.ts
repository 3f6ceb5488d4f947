// bpe(<policy>): the EvoHarness Belief / Progress / Experience agent harness around any policy.
// Id syntax: `bpe(<inner id>[,-belief][,-progress][,-experience][,cap=N][,cost=C][,driver=D])`,
// e.g. `bpe(scripted:household-explorer)`, `bpe(openai:gpt-4.1,-experience)`. Settings can also
// come as `options.bpe` ({ belief, progress, experience, metaCap, metaCost, driver, maxReplans });
// the skill bank (frozen for the batch) comes as `options.experience` (Skill[]).
import { InvalidInputError } from '../../errors.ts';
import type { Policy, PolicyContext, PolicyDescriptor } from '../types.ts';
import {
  applyBpeOptions,
  type BpeConfig,
  BpeSession,
  DEFAULT_BPE_CONFIG,
  skillsFromOptions,
} from './session.ts';

export { META_USAGE, META_VERBS, parseMeta } from './meta.ts';
export { type BpeConfig, BpeSession, DEFAULT_BPE_CONFIG } from './session.ts';
export { Workspace } from './workspace.ts';

export interface ParsedBpeId {
  inner: string;
  config: BpeConfig;
}

/** Parses a bpe policy id; undefined when the id is not a bpe id. */
export function parseBpeId(id: string): ParsedBpeId | undefined {
  const m = /^bpe\((.+)\)$/.exec(id.trim());
  if (!m?.[1]) return undefined;
  const [inner, ...flags] = m[1].split(',').map((s) => s.trim());
  if (!inner) throw new InvalidInputError(`bpe policy id '${id}' names no inner policy`);
  if (inner.startsWith('bpe('))
    throw new InvalidInputError(`bpe cannot wrap another bpe policy ('${id}')`);
  const parts = { ...DEFAULT_BPE_CONFIG.parts };
  const config: BpeConfig = { ...DEFAULT_BPE_CONFIG, parts };
  for (const flag of flags) {
    const off = /^-(belief|progress|experience)$/.exec(flag)?.[1] as keyof typeof parts | undefined;
    if (off) {
      parts[off] = false;
      continue;
    }
    const kv = /^(cap|cost|driver|replans)=(.+)$/.exec(flag);
    if (kv?.[1] === 'cap' && /^\d+$/.test(kv[2] ?? '')) config.metaCap = Number(kv[2]);
    else if (kv?.[1] === 'cost' && Number(kv[2]) >= 0 && Number(kv[2]) <= 1)
      config.metaCost = Number(kv[2]);
    else if (kv?.[1] === 'replans' && /^\d+$/.test(kv[2] ?? '')) config.maxReplans = Number(kv[2]);
    else if (kv?.[1] === 'driver' && ['auto', 'scaffold', 'policy'].includes(kv[2] ?? ''))
      config.driver = kv[2] as BpeConfig['driver'];
    else
      throw new InvalidInputError(
        `bpe policy id '${id}': unknown setting '${flag}' (use -belief, -progress, -experience, cap=N, cost=0..1, replans=N, driver=auto|scaffold|policy)`,
      );
  }
  return { inner, config };
}

export function bpePolicy(id: string, parsed: ParsedBpeId, innerPolicy: Policy): Policy {
  const off = (['belief', 'progress', 'experience'] as const).filter(
    (p) => !parsed.config.parts[p],
  );
  const descriptor: PolicyDescriptor = {
    id,
    ...(innerPolicy.descriptor.bridge ? { bridge: innerPolicy.descriptor.bridge } : {}),
    kind: 'bpe',
    description: `EvoHarness Belief/Progress/Experience workspace around ${innerPolicy.descriptor.id}${
      off.length > 0 ? ` (without ${off.join(', ')})` : ''
    }; meta-actions track/commit/recall/note cost a step each.`,
    weaknesses: innerPolicy.descriptor.weaknesses ?? [],
  };
  return {
    descriptor,
    // Every option but bpe's own goes to the inner policy, so the inner policy checks them.
    ...(innerPolicy.checkOptions
      ? {
          checkOptions: (options) => {
            const { bpe: _b, experience: _e, ...rest } = options ?? {};
            return innerPolicy.checkOptions?.(rest) ?? [];
          },
        }
      : {}),
    async start(context: PolicyContext) {
      const config = applyBpeOptions(parsed.config, context.options?.bpe);
      return new BpeSession(innerPolicy, context, config, skillsFromOptions(context.options));
    },
  };
}

/** The registry hook: resolves bpe ids through the registry's own getPolicy for the inner policy. */
export function bpeResolver(
  getPolicy: (id: string) => Policy,
  listInner: (bridge?: string) => PolicyDescriptor[],
) {
  return {
    resolve(id: string): Policy | undefined {
      const parsed = parseBpeId(id);
      if (!parsed) return undefined;
      return bpePolicy(id, parsed, getPolicy(parsed.inner));
    },
    list(bridge?: string): PolicyDescriptor[] {
      // Offer the wrapper around each scripted policy of the bridge; any other id works too.
      return listInner(bridge)
        .filter(
          (d) =>
            d.kind === 'scripted' &&
            d.bridge === 'household' &&
            (!bridge || bridge === 'household'),
        )
        .map((d) => ({
          id: `bpe(${d.id})`,
          bridge: 'household',
          kind: 'bpe' as const,
          description: `EvoHarness Belief/Progress/Experience workspace around ${d.id}.`,
        }));
    },
  };
}
