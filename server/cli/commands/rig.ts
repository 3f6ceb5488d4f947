import { COMPONENTS, type ComponentName } from '../../../contracts/rigs.ts';
import { getPolicy } from '../../policies/index.ts';
import { DESIGNERS, type DesignerName } from '../../rigger/designers/index.ts';
import { type RigResult, runRig } from '../../rigger/loop.ts';
import { inProcessEngine } from '../../rollouts/default-engine.ts';
import {
  type Command,
  flag,
  intOption,
  json,
  type OptionValues,
  policyOptionsFlag,
  stringOption,
  UsageError,
} from '../command.ts';

export function bandOption(values: OptionValues, name: string): [number, number] | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const parts = text.split(',').map((x) => Number(x.trim()));
  const [lo, hi] = parts;
  if (
    parts.length !== 2 ||
    lo === undefined ||
    hi === undefined ||
    !Number.isFinite(lo) ||
    !Number.isFinite(hi) ||
    lo < 0 ||
    lo > hi
  ) {
    throw new UsageError(`--${name} must be lo,hi with 0 <= lo <= hi, got '${text}'`);
  }
  return [lo, hi];
}

/** `--designer`, or undefined: the policy decides (openai:<model> → llm on that model, else heuristic). */
export function designerOption(values: OptionValues): DesignerName | undefined {
  const d = stringOption(values, 'designer');
  if (d === undefined) return undefined;
  if (!(DESIGNERS as readonly string[]).includes(d)) {
    throw new UsageError(`--designer must be one of ${DESIGNERS.join(', ')}, got '${d}'`);
  }
  return d as DesignerName;
}

/** `--components stage,contract[,chain]` (default: the paper's stage,contract). */
export function componentsOption(values: OptionValues): ComponentName[] | undefined {
  const text = stringOption(values, 'components');
  if (text === undefined) return undefined;
  const names = text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = names.filter((n) => !(COMPONENTS as readonly string[]).includes(n));
  if (names.length === 0 || bad.length > 0 || new Set(names).size !== names.length) {
    throw new UsageError(
      `--components must list some of ${COMPONENTS.join(', ')} once each (e.g. stage,contract), got '${text}'`,
    );
  }
  return names as ComponentName[];
}

/** Whether the rig's episodes may play on this thread (heuristic designer, scripted policy). */
export function playsInProcess(designer: DesignerName | undefined, policy: string): boolean {
  const kind = getPolicy(policy).descriptor.kind;
  return (
    (designer ?? (kind === 'scripted' ? 'heuristic' : 'llm')) === 'heuristic' && kind === 'scripted'
  );
}

/** The documented JSON shape of `harness rig --json`. */
export function rigJson(r: RigResult) {
  return {
    rigId: r.rigId,
    task: r.taskId,
    settings: r.settings,
    baseline: {
      runId: r.baseline.runId,
      successRate: r.baseline.successRate,
      failureDistribution: r.baseline.failureDistribution,
      meanSteps: r.baseline.meanSteps,
    },
    diagnosis: {
      axis: r.diagnosis.axis,
      label: r.diagnosis.label,
      description: r.diagnosis.description,
      evidence: r.diagnosis.evidence.map((e) => ({
        episodeId: e.episodeId,
        step: e.step,
        ...(e.quote ? { quote: e.quote } : {}),
      })),
      ...(r.diagnosis.check ? { check: r.diagnosis.check } : {}),
      direction: r.diagnosis.direction,
    },
    iterations: r.iterations.map((it) => ({
      candidate: { spec: it.candidate.spec, rationale: it.candidate.rationale },
      ...(it.template ? { template: it.template } : {}),
      ...(it.writeError ? { writeError: it.writeError } : {}),
      validation: it.validation,
      decision: it.decision,
      feedback: it.feedback,
    })),
    accepted: r.accepted,
    ...(r.rounds
      ? {
          rounds: r.rounds.map((x) => ({
            round: x.round,
            skills: x.skills,
            baseline: { successRate: x.baseline.successRate, runId: x.baseline.runId },
            diagnosis: { axis: x.diagnosis.axis, label: x.diagnosis.label },
            iterations: x.iterations.length,
            accepted: x.accepted,
            lessons: x.lessons,
          })),
        }
      : {}),
    durationMs: r.durationMs,
  };
}

export const command: Command = {
  name: 'rig',
  summary:
    'EnvRigger: observe a policy, diagnose it, write and validate harness candidates until one lands in the band.',
  usage:
    "harness rig --task bridge:task --policy P [--designer heuristic|llm] [--components stage,contract[,chain]] [--k 5] [--max-iterations 5] [--band lo,hi] [--steps-band lo,hi] [--defect TEXT] [--rounds R] [--max-steps M] [--scene N] [--policy-option key=value]... [--no-lint] [--json]\n  --designer: default by policy — openai:<model> gets the llm designer on that same model and endpoint (the paper), a scripted policy the heuristic one\n  --components: what the designer may write; default stage,contract (the paper's pipeline); chain is an opt-in beyond the paper\n  --no-lint: no solvability lint before Validate (a candidate it would refute spends its K rollouts).",
  options: {
    task: { type: 'string' },
    policy: { type: 'string' },
    designer: { type: 'string' },
    components: { type: 'string' },
    k: { type: 'string' },
    'max-iterations': { type: 'string' },
    band: { type: 'string' },
    'steps-band': { type: 'string' },
    defect: { type: 'string' },
    rounds: { type: 'string' },
    'max-steps': { type: 'string' },
    scene: { type: 'string' },
    seed: { type: 'string' },
    'no-lint': { type: 'boolean' },
    'policy-option': { type: 'string', multiple: true },
    json: { type: 'boolean' },
  },
  async run({ values, io, services }) {
    const task = stringOption(values, 'task');
    if (!task?.includes(':')) throw new UsageError('--task bridge:task is required');
    const policy = stringOption(values, 'policy');
    if (!policy) throw new UsageError('--policy is required (see harness policies)');
    const asJson = flag(values, 'json');
    const band = bandOption(values, 'band');
    const stepsBand = bandOption(values, 'steps-band');
    const defect = stringOption(values, 'defect');
    const designer = designerOption(values);
    const policyOptions = policyOptionsFlag(values);
    const components = componentsOption(values);
    // A one-shot CLI rig of a scripted policy with the heuristic designer plays its episodes on this
    // thread: the hook code is the designer's own templates (no LLM-written code to isolate) and a
    // scripted policy is cheap, so the worker pool's start-up was most of a short rig's wall time.
    const inProcess = playsInProcess(designer, policy);
    {
      const { rigDeps } = await services(inProcess ? { engine: inProcessEngine } : {});
      const result = await runRig(
        rigDeps(),
        {
          task,
          policy,
          ...(designer ? { designer } : {}),
          ...(components ? { components } : {}),
          k: intOption(values, 'k', 5),
          maxIterations: intOption(values, 'max-iterations', 5),
          rounds: intOption(values, 'rounds', 1),
          maxSteps: intOption(values, 'max-steps', 50),
          scene: intOption(values, 'scene', 0),
          seed: intOption(values, 'seed', 0),
          ...(band ? { band } : {}),
          ...(stepsBand ? { stepsBand } : {}),
          ...(defect ? { defect } : {}),
          lint: !flag(values, 'no-lint'),
          ...(policyOptions ? { policyOptions } : {}),
        },
        { onProgress: (text) => io.err(`${text}\n`) },
      );
      if (asJson) io.out(json(rigJson(result)));
      else {
        io.out(
          `rig ${result.rigId}: ${result.accepted ? 'accepted a candidate' : 'no candidate accepted'} after ${result.iterations.length} iteration(s) (${(result.durationMs / 1000).toFixed(1)} s)\n`,
        );
        if (result.accepted) io.out(json(result.accepted));
      }
      return result.accepted ? 0 : 1;
    }
  },
};
