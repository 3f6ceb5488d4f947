// The black-box policy interface. A policy sees what an agent sees (observations, step info such
// as admissible commands, the tools and the goal) and nothing else: no state view, no verifier.
import { KindedError } from '../../bridges/core/errors.ts';
import type {
  Action,
  Json,
  Observation,
  StepInfo,
  TaskInfo,
  ToolSpec,
} from '../../bridges/core/types.ts';
import type { EpisodeLlm, StepLlm } from '../../contracts/llm.ts';

export interface PolicyContext {
  bridge: string;
  task: TaskInfo;
  tools: ToolSpec[];
  /** The text tool of the bridge, when it has one (household `act {command}`). */
  textTool?: { name: string; arg: string };
  seed: number;
  maxSteps: number;
  /** Policy-specific settings (e.g. skill tags, temperature). */
  options?: Record<string, Json>;
  /** The run the episode belongs to, when it belongs to one (what a policy may remember per run). */
  runId?: string;
}

export type PolicyDecision =
  /** Take an environment action. */
  (
    | { kind: 'act'; action: Action; note?: string; meta?: Json }
    /** The model produced something that is not a valid tool call: counted as an invalid action. */
    | { kind: 'invalid'; raw: string; reason: string }
    /**
     * An agent-side harness action (EvoHarness meta-action, e.g. `recall[mug]`) answered by the policy
     * wrapper itself: recorded as a step with `meta` bookkeeping and its feedback as the observation,
     * never sent to the environment. It costs `cost` (default 1) of the step budget.
     */
    | {
        kind: 'meta';
        action: Action;
        observation: Observation;
        invalid: boolean;
        meta: Json;
        cost?: number;
      }
    /** The policy stops before the budget runs out. */
    | { kind: 'give_up'; reason?: string }
  ) & {
    /** What an LLM policy adds to the step: tokens, reasoning, reply text, mode (contracts/llm.ts). */
    llm?: StepLlm;
  };

/** What an LLM policy says about its episode: the mode it spoke and why (the runner adds tokens). */
export type PolicyReport = { llm?: Omit<EpisodeLlm, 'byKind'> };

export interface AgentSession {
  /** Called with the initial observation first, then after every step. */
  act(observation: Observation, info: StepInfo): Promise<PolicyDecision>;
  close?(): Promise<void>;
  /** Read once the episode ends. */
  report?(): PolicyReport;
}

export interface PolicyDescriptor {
  id: string;
  bridge?: string;
  kind: 'scripted' | 'openai' | 'human' | 'bpe';
  description: string;
  weaknesses?: string[];
}

export interface Policy {
  readonly descriptor: PolicyDescriptor;
  start(context: PolicyContext): Promise<AgentSession>;
  /** A run's policy options checked at launch: one sentence per problem (none: they are fine). */
  checkOptions?(options: Record<string, Json> | undefined): string[];
}

/** A policy failure that is not the agent's fault (network, rate limit, server down): an infra error. */
export class PolicyInfraError extends KindedError {
  readonly kind = 'infra';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PolicyInfraError';
  }
}
