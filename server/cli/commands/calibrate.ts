import { componentsText } from '../../../contracts/rigs.ts';
import { calibrate } from '../../rigger/calibrate.ts';
import { inProcessEngine } from '../../rollouts/default-engine.ts';
import { type Command, flag, intOption, json, stringOption, UsageError } from '../command.ts';
import { bandOption, componentsOption, designerOption, playsInProcess } from './rig.ts';

export const command: Command = {
  name: 'calibrate',
  summary:
    'EnvRigger over a split: share of tasks whose success rate lies in the band, before and after, with the settings and the mix of accepted templates.',
  usage:
    "harness calibrate --bridge B --split S --policy P [--band lo,hi] [--designer heuristic|llm] [--components stage,contract[,chain]] [--limit N] [--type T] [--k 5] [--max-iterations 5] [--no-lint] [--json]\n  defaults: the paper's — components stage,contract; the designer by policy (openai:<model> → llm on that model, scripted → heuristic)\n  --no-lint: no solvability lint before Validate (every candidate spends its K rollouts, as before the gate).",
  options: {
    bridge: { type: 'string' },
    split: { type: 'string' },
    policy: { type: 'string' },
    band: { type: 'string' },
    designer: { type: 'string' },
    components: { type: 'string' },
    limit: { type: 'string' },
    type: { type: 'string' },
    k: { type: 'string' },
    'max-iterations': { type: 'string' },
    'no-lint': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run({ values, io, services }) {
    const bridge = stringOption(values, 'bridge');
    const split = stringOption(values, 'split');
    const policy = stringOption(values, 'policy');
    if (!bridge || !split || !policy)
      throw new UsageError('--bridge, --split and --policy are required');
    const band = bandOption(values, 'band');
    const limitText = stringOption(values, 'limit');
    const type = stringOption(values, 'type');
    const designer = designerOption(values);
    const components = componentsOption(values);
    // As `harness rig`: a scripted policy with the heuristic designer plays on this thread.
    const inProcess = playsInProcess(designer, policy);
    const { rigDeps } = await services(inProcess ? { engine: inProcessEngine } : {});
    const r = await calibrate(
      rigDeps(),
      {
        bridge,
        split,
        policy,
        ...(designer ? { designer } : {}),
        ...(components ? { components } : {}),
        k: intOption(values, 'k', 5),
        maxIterations: intOption(values, 'max-iterations', 5),
        ...(band ? { band } : {}),
        ...(limitText !== undefined ? { limit: intOption(values, 'limit', 1) } : {}),
        ...(type ? { type } : {}),
        lint: !flag(values, 'no-lint'),
      },
      { onProgress: (text) => io.err(`${text}\n`) },
    );
    if (flag(values, 'json')) {
      io.out(json(r));
      return 0;
    }
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    for (const d of r.detail) {
      const f = (x: number | null) => (x === null ? '  -  ' : pct(x).padStart(5));
      io.out(
        `${d.taskId}\t${d.type}\t${f(d.before)} -> ${f(d.after)}\t${d.diagnosis}\t${d.template ?? '-'}\n`,
      );
    }
    const s = r.settings;
    io.out(
      `settings: components ${componentsText(s.components)}; designer ${s.designer}${s.designerModel ? ` (${s.designerModel})` : ''} — ${s.designerWhy}; K=${s.k}; band [${s.band.join(', ')}]; up to ${s.maxIterations} iterations; ${s.maxSteps} steps\n`,
    );
    io.out(
      `in [${r.band.join(', ')}]: before ${r.before.inBand}/${r.tasks} (${pct(r.before.share)}), after ${r.after.inBand}/${r.tasks} (${pct(r.after.share)})\n`,
    );
    io.out(
      `accepted templates (${r.mix.accepted}): ${r.mix.templates.map((t) => `${t.template} ${t.count} (${pct(t.share)})`).join(', ') || 'none'}; with a step cap: ${r.mix.stepCap.count} (${pct(r.mix.stepCap.share)})\n`,
    );
    io.out(
      `rollouts: ${r.rollouts.launched} launched; lint ${r.rollouts.lint ? `refuted ${r.rollouts.refuted} candidates and skipped ${r.rollouts.skipped} rollouts` : 'off'}\n`,
    );
    io.out(
      `goal (≥ 80% in band, no template or step cap above 40%): ${r.goal.met ? 'met' : `not met (${[!r.goal.inBand ? 'in band' : '', !r.goal.mix ? 'mix' : ''].filter(Boolean).join(', ')})`}\n`,
    );
    return 0;
  },
};
