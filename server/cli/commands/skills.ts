// `harness skills compare|extract|list|show`: the EvoHarness skill bank and the skill-source comparison.
import { runAblation } from '../../skills/ablation.ts';
import { type CompareResult, compareSkillSources } from '../../skills/compare.ts';
import {
  consolidateBankFromRun,
  extractBankFromRun,
  getBank,
  listBanks,
} from '../../skills/service.ts';
import {
  type Command,
  type CommandContext,
  flag,
  intOption,
  json,
  type OptionValues,
  stringOption,
  UsageError,
} from '../command.ts';

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

export function compareTable(r: CompareResult): string {
  const head = `source       skills  train-success  eval-success (95% CI)          mean steps  n`;
  const lines = r.rows.map((row) =>
    [
      row.source.padEnd(12),
      String(row.skills).padStart(6),
      (row.trainSuccessRate === null ? '—' : pct(row.trainSuccessRate)).padStart(14),
      `  ${pct(row.successRate).padStart(6)} [${pct(row.interval[0])}, ${pct(row.interval[1])}]`.padEnd(
        32,
      ),
      row.meanSteps.toFixed(1).padStart(10),
      String(row.n).padStart(3),
    ].join(' '),
  );
  return `${head}\n${lines.join('\n')}\n`;
}

export const command: Command = {
  name: 'skills',
  summary:
    'Skill banks (EvoHarness experience): compare skill sources, extract a bank from a run, list, show.',
  usage: [
    'harness skills compare --bridge B --policy P [--train-split train] [--eval-split eval_unseen] [--envs N] [--eval-envs M|0=all] [--seed S] [--max-steps T] [--extractor heuristic|llm] [--envharness templates|rigger] [--validate-k 4] [--band 0.25,0.75] [--no-persist] [--json]',
    'harness skills ablate --bridge B --policy P [--train-envs N (24)] [--eval-envs M|0=all] [--seed S] [--json]   (bare vs bpe(P) with each part off, per task type)',
    'harness skills extract --run <runId> [--extractor heuristic|llm] [--name NAME] [--json]',
    'harness skills consolidate --bank <bankId> --run <runId> [--extractor heuristic|llm] [--json]   (between batches: validated edits + usage counts)',
    'harness skills list [--json]',
    'harness skills show <bankId> [--json]',
  ].join('\n'),
  positionals: { min: 1, max: 2, names: '<compare|ablate|extract|consolidate|list|show> [bankId]' },
  options: {
    bridge: { type: 'string' },
    policy: { type: 'string' },
    'train-split': { type: 'string' },
    'eval-split': { type: 'string' },
    envs: { type: 'string' },
    'eval-envs': { type: 'string' },
    seed: { type: 'string' },
    'max-steps': { type: 'string' },
    extractor: { type: 'string' },
    envharness: { type: 'string' },
    'no-persist': { type: 'boolean' },
    'train-envs': { type: 'string' },
    'validate-k': { type: 'string' },
    band: { type: 'string' },
    run: { type: 'string' },
    bank: { type: 'string' },
    name: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(ctx) {
    const sub = ctx.positionals[0];
    const handler = SUBCOMMANDS[sub ?? ''];
    if (!handler) {
      throw new UsageError(`unknown subcommand '${sub}' (${Object.keys(SUBCOMMANDS).join(', ')})`);
    }
    return handler(ctx, {
      asJson: flag(ctx.values, 'json'),
      extractor: extractorOption(ctx.values),
    });
  },
};

type Extractor = 'heuristic' | 'llm';
type Sub = (ctx: CommandContext, o: { asJson: boolean; extractor: Extractor }) => Promise<number>;

function extractorOption(values: OptionValues): Extractor {
  const extractor = stringOption(values, 'extractor') ?? 'heuristic';
  if (extractor !== 'heuristic' && extractor !== 'llm')
    throw new UsageError(`--extractor must be heuristic or llm, got '${extractor}'`);
  return extractor;
}

function bandOf(values: OptionValues): [number, number] | undefined {
  const bandText = stringOption(values, 'band');
  const band = bandText?.split(',').map((x) => Number(x.trim()));
  if (!band) return undefined;
  if (band.length !== 2 || band.some((x) => !(x >= 0 && x <= 1)) || (band[0] ?? 0) > (band[1] ?? 0))
    throw new UsageError(`--band must be lo,hi within [0, 1], got '${bandText}'`);
  return [band[0] ?? 0, band[1] ?? 1];
}

const compare: Sub = async ({ values, io, services, bridges }, { asJson, extractor }) => {
  const bridge = stringOption(values, 'bridge');
  const policy = stringOption(values, 'policy');
  if (!bridge || !policy) throw new UsageError('--bridge and --policy are required');
  const envharness = stringOption(values, 'envharness') ?? 'templates';
  if (envharness !== 'templates' && envharness !== 'rigger')
    throw new UsageError(`--envharness must be templates or rigger, got '${envharness}'`);
  const band = bandOf(values);
  const persist = !flag(values, 'no-persist');
  const onProgress = (t: string) => (asJson ? undefined : io.err(`${t}\n`));
  // Only a persisted comparison (or one that runs EnvRigger) needs the database.
  const deps =
    persist || envharness === 'rigger'
      ? (await services()).skillDeps({ onProgress })
      : { onProgress, bridges: bridges() };
  const r = await compareSkillSources(deps, {
    validateK: intOption(values, 'validate-k', 4),
    ...(band ? { band } : {}),
    bridge,
    policy,
    trainSplit: stringOption(values, 'train-split') ?? 'train',
    evalSplit: stringOption(values, 'eval-split') ?? 'eval_unseen',
    envs: intOption(values, 'envs', 8),
    evalEnvs: intOption(values, 'eval-envs', 24),
    seed: intOption(values, 'seed', 0),
    maxSteps: intOption(values, 'max-steps', 50),
    extractor,
    envharness,
    persist,
  });
  if (asJson) {
    const { id, rows, trainTasks, evalTasks, envharness: envs, durationMs } = r;
    io.out(json({ id, rows, trainTasks, evalTasks, envharness: envs, durationMs }));
  } else {
    io.out(compareTable(r));
    if (r.id) io.out(`comparison ${r.id} (${(r.durationMs / 1000).toFixed(1)} s)\n`);
  }
  return 0;
};

const ablate: Sub = async ({ values, io, bridges }, { asJson }) => {
  const bridge = stringOption(values, 'bridge');
  const policy = stringOption(values, 'policy');
  if (!bridge || !policy) throw new UsageError('--bridge and --policy are required');
  const r = await runAblation(
    bridges(),
    {
      bridge,
      policy,
      trainSplit: stringOption(values, 'train-split') ?? 'train',
      evalSplit: stringOption(values, 'eval-split') ?? 'eval_unseen',
      trainEnvs: intOption(values, 'train-envs', 24),
      evalEnvs: intOption(values, 'eval-envs', 0),
      seed: intOption(values, 'seed', 0),
      maxSteps: intOption(values, 'max-steps', 50),
    },
    (t) => (asJson ? undefined : io.err(`${t}\n`)),
  );
  if (asJson) {
    io.out(json(r));
    return 0;
  }
  const types = [...new Set(r.rows.flatMap((row) => Object.keys(row.perType)))].sort();
  io.out(`${['variant'.padEnd(16), 'success', 'steps', 'meta/ep', ...types].join('  ')}\n`);
  for (const row of r.rows) {
    io.out(
      `${[
        row.variant.padEnd(16),
        pct(row.successRate).padStart(7),
        row.meanSteps.toFixed(1).padStart(5),
        row.metaSteps.toFixed(1).padStart(7),
        ...types.map((t) => pct(row.perType[t]?.rate ?? 0).padStart(t.length)),
      ].join('  ')}\n`,
    );
  }
  return 0;
};

const extract: Sub = async ({ values, io, services }, { asJson, extractor }) => {
  const runId = stringOption(values, 'run');
  if (!runId) throw new UsageError('--run is required');
  const name = stringOption(values, 'name');
  const r = await extractBankFromRun(await services(), {
    runId,
    extractor,
    ...(name ? { name } : {}),
  });
  io.out(
    asJson
      ? json(r)
      : `bank ${r.bankId}: ${r.skills} skills (${r.edits} edits applied, ${r.rejected} rejected)\n`,
  );
  return 0;
};

const consolidate: Sub = async ({ values, io, services }, { asJson, extractor }) => {
  const runId = stringOption(values, 'run');
  const bankId = stringOption(values, 'bank');
  if (!runId || !bankId) throw new UsageError('--bank and --run are required');
  const r = await consolidateBankFromRun(await services(), { bankId, runId, extractor });
  if (asJson) io.out(json(r));
  else {
    io.out(
      `bank ${bankId}: ${r.applied} edits applied, ${r.rejected.length} rejected, ${r.skills} skills\n`,
    );
    for (const x of r.rejected) io.out(`  rejected: ${x.reason}\n`);
  }
  return 0;
};

const list: Sub = async ({ io, services }, { asJson }) => {
  const banks = await listBanks((await services()).db);
  if (asJson) io.out(json(banks));
  else
    for (const b of banks)
      io.out(`${b.id}  ${b.source.padEnd(10)} ${String(b.skills).padStart(3)} skills  ${b.name}\n`);
  return 0;
};

const show: Sub = async ({ positionals, io, services }, { asJson }) => {
  const id = positionals[1];
  if (!id) throw new UsageError('harness skills show <bankId>');
  const b = await getBank((await services()).db, id);
  if (asJson) io.out(json(b));
  else {
    io.out(`${b.bank.name} (${b.bank.source}, ${b.skills.length} skills)\n`);
    for (const s of b.skills)
      io.out(
        `[${s.category}] ${s.title} (uses ${s.uses}, ${s.sourceEpisodeIds.length} episodes)\n  ${s.content}\n`,
      );
  }
  return 0;
};

const SUBCOMMANDS: Record<string, Sub> = { compare, ablate, extract, consolidate, list, show };
