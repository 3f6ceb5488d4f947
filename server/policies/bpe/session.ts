// The bpe(<policy>) session: keeps the workspace, answers meta-actions itself (they never reach the
// environment but each is recorded as a step and costs budget), and drives the inner policy.
//
// Two drivers:
// * `policy` (LLM and other prompt-reading policies): the inner policy sees the rendered workspace
//   under every observation, gets the meta-actions as extra tools (or types them into the text
//   tool), and decides when to use them.
// * `scaffold` (scripted policies, which cannot read a prompt): the wrapper issues meta-actions at
//   fixed points and hands their results over through the documented channels — recalled skills
//   become `options.skills` tags and `options.searchPriors` (the inner session starts after the
//   recall), sub-goals shown done are committed, and when the inner policy gives up while sub-goals
//   are pending it is restarted once, fed what belief knows about the target (track), instead of
//   searching from nothing.
import { z } from 'zod';
import type { Action, Json, Observation, StepInfo } from '../../../bridges/core/types.ts';
import { policyOptionsFromSkills } from '../../skills/tags.ts';
import { type Skill, SkillSchema } from '../../skills/types.ts';
import { parseGoal } from '../household/goal.ts';
import type { AgentSession, Policy, PolicyContext, PolicyDecision } from '../types.ts';
import { META_USAGE, META_VERBS, type MetaVerb, metaTools, parseMeta } from './meta.ts';
import { type BpeParts, Workspace } from './workspace.ts';

/** The action name of a malformed decision (server/rollouts/reward.ts MALFORMED_ACTION_NAME). */
export const MALFORMED = '__invalid__';

export interface BpeConfig {
  parts: BpeParts;
  /** Budget a meta-action costs (PAPERS.md: 1, the same as an environment action). */
  metaCost: number;
  /** Meta-actions allowed per episode; more are invalid. */
  metaCap: number;
  driver: 'auto' | 'scaffold' | 'policy';
  /** Restarts of a scripted inner policy that gave up with sub-goals pending. */
  maxReplans: number;
}

export const DEFAULT_BPE_CONFIG: BpeConfig = {
  parts: { belief: true, progress: true, experience: true },
  metaCost: 1,
  metaCap: 20,
  driver: 'auto',
  maxReplans: 1,
};

export const BpeOptionsSchema = z
  .object({
    belief: z.boolean(),
    progress: z.boolean(),
    experience: z.boolean(),
    metaCost: z.number().min(0).max(1),
    metaCap: z.number().int().min(0).max(1000),
    driver: z.enum(['auto', 'scaffold', 'policy']),
    maxReplans: z.number().int().min(0).max(10),
  })
  .partial();

export function applyBpeOptions(base: BpeConfig, raw: unknown): BpeConfig {
  const o = BpeOptionsSchema.parse(raw ?? {});
  return {
    parts: {
      belief: o.belief ?? base.parts.belief,
      progress: o.progress ?? base.parts.progress,
      experience: o.experience ?? base.parts.experience,
    },
    metaCost: o.metaCost ?? base.metaCost,
    metaCap: o.metaCap ?? base.metaCap,
    driver: o.driver ?? base.driver,
    maxReplans: o.maxReplans ?? base.maxReplans,
  };
}

const INSTRUCTIONS = (parts: BpeParts, budget: number) => {
  const verbs: string[] = [];
  if (parts.belief) verbs.push('track[object] / track[world] (read your belief)');
  if (parts.progress) verbs.push('commit[subgoal] (mark a sub-goal done)');
  if (parts.experience)
    verbs.push('recall[query] (search your experience)', 'note[insight] (save a lesson)');
  return `Agent harness: a workspace is shown under each observation. Besides environment commands you may use ${verbs.join(', ')}. Every action, meta-actions included, costs one step of your ${budget}-step budget.`;
};

type Pending = { verb: MetaVerb; arg: string; why: string };

export class BpeSession implements AgentSession {
  private readonly ws: Workspace;
  private readonly driver: 'scaffold' | 'policy';
  private readonly verbs: MetaVerb[];
  private inner: AgentSession | undefined;
  private metaCount = 0;
  private invalidMeta = 0;
  private decisions = 0;
  private replans = 0;
  private lastWasMeta = false;
  private lastCommand: string | undefined;
  /** The latest environment observation and info (what a scaffolded inner policy is owed). */
  private envObservation: Observation | undefined;
  private envInfo: StepInfo = {};
  private queue: Pending[] = [];
  private recalledOnce = false;
  /** Text the inner policy must see instead of the environment observation (after a restart). */
  private handover: string | undefined;

  constructor(
    private readonly innerPolicy: Policy,
    private readonly context: PolicyContext,
    private readonly config: BpeConfig,
    skills: Skill[],
  ) {
    this.ws = new Workspace(context.bridge, config.parts, skills, context.task.type);
    this.driver =
      config.driver === 'auto'
        ? innerPolicy.descriptor.kind === 'scripted' || innerPolicy.descriptor.kind === 'human'
          ? 'scaffold'
          : 'policy'
        : config.driver;
    this.verbs = META_VERBS.filter((v) => {
      if (v === 'track') return config.parts.belief;
      if (v === 'commit') return config.parts.progress;
      return config.parts.experience;
    });
    this.ws.setGoal(context.task.goal);
  }

  get stats(): { metaActions: number; invalidMeta: number; notes: string[]; recalled: string[] } {
    return {
      metaActions: this.metaCount,
      invalidMeta: this.invalidMeta,
      notes: [...this.ws.notes],
      recalled: [...this.ws.recalled],
    };
  }

  async act(observation: Observation, info: StepInfo): Promise<PolicyDecision> {
    if (!this.lastWasMeta) {
      this.envObservation = observation;
      this.envInfo = info;
      const done = this.ws.observe(observation.text, info, this.lastCommand);
      if (this.driver === 'scaffold') {
        for (const text of done)
          this.queue.push({ verb: 'commit', arg: text, why: 'progress shown done' });
      }
    }
    this.decisions += 1;
    return this.driver === 'scaffold'
      ? this.scaffold(observation, info)
      : this.prompted(observation, info);
  }

  async close(): Promise<void> {
    await this.inner?.close?.();
  }

  /** The inner policy's report (an LLM's mode and why). */
  report() {
    return this.inner?.report?.() ?? {};
  }

  // ---- meta-actions ----------------------------------------------------------------------------

  private metaDecision(
    raw: string,
    verb: MetaVerb | undefined,
    arg: string | undefined,
    outcome: { valid: boolean; feedback: string; retrieved?: string[] },
    by: string,
  ): PolicyDecision {
    if (!outcome.valid) this.invalidMeta += 1;
    this.lastWasMeta = true;
    const action: Action =
      outcome.valid && verb
        ? { name: verb, args: { arg: arg ?? '' } }
        : { name: MALFORMED, args: { raw, reason: outcome.feedback } };
    const meta: Json = {
      bpe: {
        kind: 'meta',
        by,
        verb: verb ?? null,
        arg: arg ?? null,
        raw,
        valid: outcome.valid,
        feedback: outcome.feedback,
        retrieved: outcome.retrieved ?? [],
        metaActions: this.metaCount,
        invalidMeta: this.invalidMeta,
        workspace: this.ws.snapshot(),
      },
    };
    return {
      kind: 'meta',
      action,
      observation: { text: outcome.feedback },
      invalid: !outcome.valid,
      meta,
      cost: this.config.metaCost,
    };
  }

  /** Runs a parsed meta-action (cap and availability checked here). */
  private runMeta(raw: string, verb: MetaVerb, arg: string, by: string): PolicyDecision {
    if (this.metaCount >= this.config.metaCap) {
      return this.metaDecision(
        raw,
        verb,
        arg,
        {
          valid: false,
          feedback: `Invalid meta-action: the limit of ${this.config.metaCap} meta-actions per episode is reached; act in the environment.`,
        },
        by,
      );
    }
    this.metaCount += 1;
    const outcome = this.ws.run(verb, arg);
    if (!outcome.valid) return this.metaDecision(raw, undefined, undefined, outcome, by);
    return this.metaDecision(raw, verb, arg, outcome, by);
  }

  private envDecision(decision: Extract<PolicyDecision, { kind: 'act' }>): PolicyDecision {
    this.lastWasMeta = false;
    const tool = this.context.textTool;
    const text =
      tool && decision.action.name === tool.name ? decision.action.args[tool.arg] : undefined;
    this.lastCommand = typeof text === 'string' ? text : undefined;
    return {
      ...decision,
      meta: {
        bpe: {
          kind: 'env',
          metaActions: this.metaCount,
          invalidMeta: this.invalidMeta,
          workspace: this.ws.snapshot(),
        },
      },
    };
  }

  // ---- policy driver ---------------------------------------------------------------------------

  private innerTools() {
    const own = new Set(this.context.tools.map((t) => t.name));
    return [...this.context.tools, ...metaTools(this.verbs.filter((v) => !own.has(v)))];
  }

  private async prompted(observation: Observation, info: StepInfo): Promise<PolicyDecision> {
    if (!this.inner) {
      this.inner = await this.innerPolicy.start({
        ...this.context,
        tools: this.innerTools(),
        options: this.innerOptions({}),
      });
    }
    const header =
      this.decisions === 1 ? `${INSTRUCTIONS(this.config.parts, this.context.maxSteps)}\n\n` : '';
    const shown: Observation = {
      ...observation,
      text: `${header}${observation.text}\n\n[workspace]\n${this.ws.render()}`,
    };
    const decision = await this.inner.act(shown, info);
    const out = this.answer(decision);
    // A meta-action the model chose costs tokens like any action: the step shows them.
    return decision.llm && !out.llm ? { ...out, llm: decision.llm } : out;
  }

  /** What the wrapper makes of the inner policy's decision (meta-actions answered here). */
  private answer(decision: PolicyDecision): PolicyDecision {
    if (decision.kind !== 'act') {
      if (decision.kind === 'invalid') this.lastWasMeta = false;
      // E.g. a ReAct `think:`: answered by the inner policy, the environment did not move.
      if (decision.kind === 'meta') this.lastWasMeta = true;
      return decision;
    }
    const own = new Set(this.context.tools.map((t) => t.name));
    const parsed =
      own.has(decision.action.name) && decision.action.name !== this.context.textTool?.name
        ? ({ kind: 'env' } as const)
        : parseMeta(decision.action, this.context.textTool);
    if (parsed.kind === 'env') return this.envDecision(decision);
    if (parsed.kind === 'malformed') {
      this.metaCount += 1;
      return this.metaDecision(
        parsed.raw,
        undefined,
        undefined,
        { valid: false, feedback: `Invalid meta-action: ${parsed.reason}` },
        'policy',
      );
    }
    return this.runMeta(parsed.raw, parsed.verb, parsed.arg, 'policy');
  }

  // ---- scaffold driver -------------------------------------------------------------------------

  private innerOptions(extra: Record<string, Json>): Record<string, Json> {
    const { bpe: _b, experience: _e, ...rest } = this.context.options ?? {};
    const merged: Record<string, Json> = { ...rest };
    if (Array.isArray(extra.skills)) {
      const own = Array.isArray(rest.skills) ? rest.skills : [];
      merged.skills = [...new Set([...own, ...extra.skills])];
    }
    if (
      extra.searchPriors &&
      typeof extra.searchPriors === 'object' &&
      !Array.isArray(extra.searchPriors)
    ) {
      const own =
        rest.searchPriors &&
        typeof rest.searchPriors === 'object' &&
        !Array.isArray(rest.searchPriors)
          ? rest.searchPriors
          : {};
      merged.searchPriors = { ...extra.searchPriors, ...own };
    }
    return merged;
  }

  private async startInner(seedOffset: number): Promise<AgentSession> {
    const fromExperience = policyOptionsFromSkills(this.ws.recalledSkills());
    const options = this.innerOptions({
      skills: fromExperience.skills,
      searchPriors: fromExperience.searchPriors,
    });
    await this.inner?.close?.();
    return this.innerPolicy.start({
      ...this.context,
      seed: this.context.seed + seedOffset,
      options,
    });
  }

  private async scaffold(observation: Observation, info: StepInfo): Promise<PolicyDecision> {
    // Experience first: one recall on the goal, before the inner policy starts, so what it returns
    // can shape the policy's whole episode.
    if (this.config.parts.experience && !this.recalledOnce && this.ws.skills.length > 0) {
      this.recalledOnce = true;
      return this.runMeta(`recall[${this.ws.goalText}]`, 'recall', this.ws.goalText, 'scaffold');
    }
    const next = this.queue.shift();
    if (next && this.metaCount < this.config.metaCap) {
      return this.runMeta(`${next.verb}[${next.arg}]`, next.verb, next.arg, 'scaffold');
    }
    if (!this.inner) this.inner = await this.startInner(0);
    const envObs = this.envObservation ?? observation;
    const shown: Observation = this.handover ? { text: this.handover } : envObs;
    this.handover = undefined;
    const decision = await this.inner.act(shown, this.lastWasMeta ? this.envInfo : info);
    if (decision.kind === 'give_up') return this.onGiveUp(decision);
    if (decision.kind === 'invalid') {
      this.lastWasMeta = false;
      return decision;
    }
    if (decision.kind === 'meta') return decision;
    const parsed = parseMeta(decision.action, this.context.textTool);
    if (parsed.kind === 'meta') return this.runMeta(parsed.raw, parsed.verb, parsed.arg, 'policy');
    return this.envDecision(decision);
  }

  /**
   * Progress tells a premature stop from a finished task: with sub-goals pending and budget left, a
   * scripted policy is restarted (another seed: another search order), told what belief knows.
   */
  private async onGiveUp(
    decision: Extract<PolicyDecision, { kind: 'give_up' }>,
  ): Promise<PolicyDecision> {
    const budgetLeft = this.context.maxSteps - this.decisions;
    if (
      !this.config.parts.progress ||
      this.ws.progress.pending() === 0 ||
      this.replans >= this.config.maxReplans ||
      budgetLeft < 3
    ) {
      return decision;
    }
    this.replans += 1;
    this.inner = await this.startInner(this.replans);
    const target = parseGoal(this.ws.goalText)?.object;
    if (this.config.parts.belief && target && this.ws.locate(target).length > 0) {
      // The track result is what the restarted policy sees first.
      const d = this.runMeta(`track[${target}]`, 'track', target, 'scaffold');
      if (d.kind === 'meta' && !d.invalid) this.handover = d.observation.text;
      return d;
    }
    return this.scaffold(this.envObservation ?? { text: '' }, this.envInfo);
  }
}

export const SkillListSchema = z.array(SkillSchema);

export function skillsFromOptions(options: PolicyContext['options']): Skill[] {
  const raw = options?.experience;
  if (raw === undefined || raw === null) return [];
  return SkillListSchema.parse(raw);
}

export { META_USAGE };
