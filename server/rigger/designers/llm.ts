// The LLM designer: any OpenAI-compatible endpoint, answering through forced tool calls
// (propose_candidate, decide_on_traces). The system prompt carries the paper's designer rules and the
// environment's tools and state schema; the user turns carry the baseline trajectories and feedback.
// With the openai policy's fallbacks: an endpoint that refuses tools, or a model that answers with
// JSON in text, gets the tool's JSON Schema in the prompt and answers in JSON text for the rest of
// the rig; an endpoint's error reaches the rig in the server's own words.

import type OpenAI from 'openai';
import { z } from 'zod';
import type { Action, Json } from '../../../bridges/core/types.ts';
import { firstIssue } from '../../../contracts/issues.ts';
import { CLAIM_SOURCES, componentsText } from '../../../contracts/rigs.ts';
import { config } from '../../config.ts';
import { DomainError, InfraError, InvalidInputError } from '../../errors.ts';
import { ActionSchema } from '../../harness/spec.ts';
import {
  describeLlmError,
  jsonAnswerInstruction,
  jsonArgsInText,
  llmClient,
  refusesTools,
  splitReasoning,
} from '../../policies/llm-endpoint.ts';
import { actionText } from '../diagnosis-check.ts';
import {
  type Attempt,
  AXES,
  type Batch,
  type CandidateDraft,
  type DesignContext,
  type Designer,
  type DiagnosisReport,
  type TraceVerdict,
} from '../types.ts';
import { composeSpec } from './heuristic/common.ts';

/** The designer's reply could not be used (no tool call, bad arguments) after the retries. */
export class DesignerReplyError extends DomainError {
  override name = 'DesignerReplyError';
}

/** The endpoint failed (unreachable, an HTTP error): its own words, as an infrastructure error. */
export class DesignerEndpointError extends InfraError {
  override name = 'DesignerEndpointError';
}

const EvidenceSchema = z.object({
  episodeId: z.string(),
  step: z.number().int().min(0),
  quote: z
    .string()
    .min(1)
    .max(400)
    .describe('the exact text the agent typed or was shown at that step, copied verbatim'),
});
const AbsenceSchema = z.object({
  in: z
    .enum(CLAIM_SOURCES)
    .describe('action: what the agent typed; observation: what it was shown'),
  text: z.string().min(1).max(80).describe('the word that occurs at no step'),
  except: z.array(z.string().min(1).max(80)).max(20).optional(),
  episodeIds: z.array(z.string()).min(1).max(50),
  phrase: z
    .string()
    .min(1)
    .max(200)
    .describe('the words of your description that state it, copied verbatim'),
});
export const ProposeCandidateSchema = z.object({
  diagnosis: z.object({
    axis: z.enum(AXES),
    label: z.string().min(1).max(80),
    description: z.string().min(1).max(4000),
    evidence: z.array(EvidenceSchema).max(50).default([]),
    absences: z.array(AbsenceSchema).max(20).default([]),
  }),
  in_env_actions: z
    .array(z.union([z.string().min(1), ActionSchema]))
    .max(200)
    .default([]),
  rules_code: z
    .string()
    .max(64 * 1024)
    .default(''),
  rationale: z.string().min(1).max(4000),
});
export const DecideOnTracesSchema = z.object({
  decision: z.enum(['accept', 'refine', 'reject']),
  feedback: z.string().max(4000),
});

const PROPOSE_TOOL = {
  type: 'function' as const,
  function: {
    name: 'propose_candidate',
    description:
      'Diagnose the policy from the trajectories and propose ONE harness candidate: set-up actions replayed after reset (Stage) and/or Contract rules code.',
    parameters: z.toJSONSchema(ProposeCandidateSchema, { io: 'input' }) as Record<string, unknown>,
  },
};
const DECIDE_TOOL = {
  type: 'function' as const,
  function: {
    name: 'decide_on_traces',
    description:
      'Decide on a validated candidate from its K-sample statistics and trajectories: accept, refine (with feedback for the next candidate) or reject.',
    parameters: z.toJSONSchema(DecideOnTracesSchema, { io: 'input' }) as Record<string, unknown>,
  },
};

export const DESIGNER_RULES = `You are EnvRigger's designer. You customise an existing environment for ONE black-box policy by
wrapping it in harness components; the environment's own verifier is always kept.
Components you can write:
- in_env_actions (Stage): ordinary tool calls replayed right after reset, before the policy acts (they do
  not count against its step budget). Use them to add obstacles (hide an object in a closed receptacle)
  or to pre-complete sub-goals (clean the object beforehand). Every action must be valid in sequence
  from the reset state, or the candidate is sent back to you with the environment's reply.
- rules_code (Contract): JavaScript exporting up to three hooks, each identity when absent:
    export function filterAction(action, state) { return action | { blocked: 'reason' } }
    export function modifyTransition(action, result, state) { return result }  // result: { observation: {text}, terminated, truncated, info }
    export function filterObservation(observation, state) { return observation | 'text' }
  Hooks read only the read-only state view; module-level variables persist within one episode. Rules never
  change the initial state or the reward.
Rules:
1. Never make the task unsolvable: 0% success teaches nothing and is never accepted.
2. Prefer small, local perturbations over banning capabilities.
3. Look at the baseline first: a very weak policy gets scaffolding (pre-complete steps, add feedback); a
   policy at 100% gets a harder variant. The target is "challenging but solvable": the success band.
4. Cite the episodes and steps your diagnosis rests on (episodeId, 0-based step), each with a quote: the
   exact text the agent typed or was shown at that step, copied verbatim.
5. A statement that something never happened ("never typed open", "never saw a mug") goes in
   absences too: the word, whether it is about what the agent typed (action) or was shown (observation),
   the episodes, and the phrase of your description that states it.
Every diagnosis is checked against the trajectories before it is stored: a quote that is not in its
step, an absence that some step contradicts, and a sentence with "never", "not once", "did not" … that
no absence backs are removed, and the removal is recorded.
Always answer with the tool call you are asked for.`;

function render(batch: Batch, maxEpisodes = 5, maxSteps = 40): string {
  const lines: string[] = [];
  const s = batch.stats;
  lines.push(
    `success ${s.successes}/${s.n}, failures ${JSON.stringify(s.failureDistribution)}, mean steps ${s.meanSteps?.toFixed(1) ?? '-'}, errors ${s.errors}${s.errorMessages.length ? ` (${s.errorMessages.slice(0, 2).join(' | ')})` : ''}`,
  );
  for (const e of batch.episodes.slice(0, maxEpisodes)) {
    lines.push(
      `episode ${e.episodeId} (seed ${e.seed}): ${e.outcome}${e.failureCategory ? ` / ${e.failureCategory}` : ''}, ${e.steps} steps`,
    );
    for (const st of e.trajectory.slice(0, maxSteps)) {
      lines.push(
        `  ${st.index}> ${actionText(st.action)} => ${st.observation.text.replaceAll('\n', ' ').slice(0, 160)}`,
      );
    }
    if (e.trajectory.length > maxSteps)
      lines.push(`  … ${e.trajectory.length - maxSteps} more steps`);
  }
  return lines.join('\n');
}

export interface LlmDesignerOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  temperature?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

export class LlmDesigner implements Designer {
  readonly name = 'llm';
  private readonly client: OpenAI;
  private pending: CandidateDraft | undefined;
  /** Set once tool calls do not work with this endpoint (the policies' auto mode, for the rig). */
  private textMode: string | undefined;

  constructor(private readonly options: LlmDesignerOptions) {
    this.client = llmClient({
      baseURL: options.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 120_000,
      maxRetries: options.maxRetries ?? 2,
    });
  }

  /** From the configuration; `model` / `baseUrl` (the policy's own) win over it. */
  static fromConfig(o: { model?: string; baseUrl?: string } = {}): LlmDesigner {
    const c = config();
    const baseUrl = o.baseUrl ?? c.OPENAI_BASE_URL;
    const model = o.model ?? c.OPENAI_MODEL;
    if (!baseUrl || !model) {
      throw new InvalidInputError('the llm designer needs OPENAI_BASE_URL and OPENAI_MODEL');
    }
    return new LlmDesigner({
      baseUrl,
      model,
      temperature: c.OPENAI_TEMPERATURE,
      ...(c.OPENAI_API_KEY ? { apiKey: c.OPENAI_API_KEY } : {}),
    });
  }

  private system(ctx: DesignContext, state: Json): string {
    return `${DESIGNER_RULES}
Components this rig may write: ${componentsText(ctx.components)}.${ctx.components.includes('stage') ? '' : ' Leave in_env_actions empty.'}${ctx.components.includes('contract') ? '' : ' Leave rules_code empty.'}

Environment: ${ctx.bridge}. Tools the policy (and your in_env_actions) use:
${JSON.stringify(ctx.tools)}
State view schema (what hooks read as \`state\`):
${JSON.stringify(ctx.stateSchema)}
State view right after reset:
${JSON.stringify(state).slice(0, 12_000)}`;
  }

  private async call<T>(
    ctx: DesignContext,
    tool: typeof PROPOSE_TOOL | typeof DECIDE_TOOL,
    schema: z.ZodType<T>,
    user: string,
  ): Promise<T> {
    const state = await ctx.initialState();
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: this.system(ctx, state) },
      { role: 'user', content: user },
    ];
    const name = tool.function.name;
    let problem = 'no tool call';
    for (let attempt = 0; attempt < 3; attempt++) {
      const message = await this.complete(messages, tool);
      const text = splitReasoning(message ?? { content: null }).content;
      const call = message?.tool_calls?.find(
        (c) => c.type === 'function' && c.function.name === name,
      );
      if (call && call.type === 'function') {
        let args: unknown;
        try {
          args = JSON.parse(call.function.arguments);
          const parsed = schema.safeParse(args);
          if (parsed.success) return parsed.data;
          problem = `arguments invalid at ${firstIssue(parsed.error)}`;
        } catch {
          problem = 'arguments are not JSON';
        }
        messages.push(
          { role: 'assistant', content: null, tool_calls: [call] },
          {
            role: 'tool',
            tool_call_id: call.id,
            content: `Error: ${problem}. Call ${name} again with valid arguments.`,
          },
        );
        continue;
      }
      // No tool call: arguments written as JSON in the text are taken (the model, or the endpoint,
      // does not do tool calling), and the rest of the rig asks for JSON in text.
      const inText = jsonArgsInText(text, name);
      if (inText) {
        this.textMode ??= 'the model answered with JSON in text instead of a tool call';
        const parsed = schema.safeParse(inText);
        if (parsed.success) return parsed.data;
        problem = `arguments invalid at ${firstIssue(parsed.error)}`;
      } else problem = 'no tool call';
      messages.push(
        { role: 'assistant', content: text },
        {
          role: 'user',
          content: this.textMode
            ? `${problem === 'no tool call' ? 'No JSON object found' : `Error: ${problem}`}. Answer with only the JSON arguments of ${name}.`
            : `Answer by calling ${name}.`,
        },
      );
    }
    throw new DesignerReplyError(`the llm designer gave no usable ${name} call: ${problem}`);
  }

  /**
   * One completion: a forced tool call, or — once the endpoint refused tools or the model answered
   * in text — the same request with the tool's JSON Schema in the prompt and no tools.
   */
  private async complete(
    messages: OpenAI.Chat.ChatCompletionMessageParam[],
    tool: typeof PROPOSE_TOOL | typeof DECIDE_TOOL,
  ): Promise<OpenAI.Chat.ChatCompletionMessage | undefined> {
    for (;;) {
      const textMode = this.textMode !== undefined;
      const [system, ...rest] = messages;
      try {
        const reply = await this.client.chat.completions.create({
          model: this.options.model,
          messages:
            textMode && system?.role === 'system'
              ? [
                  {
                    role: 'system',
                    content: `${system.content}\n\n${jsonAnswerInstruction(tool.function)}`,
                  },
                  ...rest,
                ]
              : messages,
          ...(textMode
            ? {}
            : {
                tools: [tool],
                tool_choice: { type: 'function' as const, function: { name: tool.function.name } },
              }),
          ...(this.options.temperature !== undefined
            ? { temperature: this.options.temperature }
            : {}),
        });
        return reply.choices[0]?.message;
      } catch (error) {
        if (!textMode && refusesTools(error)) {
          this.textMode = `the endpoint refused tool calling (${describeLlmError(error)})`;
          continue;
        }
        throw new DesignerEndpointError(`llm designer: ${describeLlmError(error)}`, {
          cause: error,
        });
      }
    }
  }

  /** Why the designer answers in JSON text instead of tool calls (undefined: tool calls work). */
  get fallback(): string | undefined {
    return this.textMode;
  }

  private brief(ctx: DesignContext): string {
    const c = ctx.constraints;
    return `Task (${ctx.taskId}): ${ctx.task.goal}
Target: success rate in [${c.band[0]}, ${c.band[1]}] over K rollouts${c.stepsBand ? `, mean steps in [${c.stepsBand[0]}, ${c.stepsBand[1]}]` : ''}; step budget ${ctx.maxSteps}.${c.defect ? `\nThe user reports this defect to target: ${c.defect}` : ''}
Baseline rollouts of the policy on the original task:
${render(ctx.baseline)}`;
  }

  private toDraft(ctx: DesignContext, p: z.infer<typeof ProposeCandidateSchema>): CandidateDraft {
    const tool = ctx.tools[0];
    const textArg = tool
      ? Object.keys((tool.parameters.properties as Record<string, unknown>) ?? {})[0]
      : undefined;
    const actions: Action[] = p.in_env_actions.map((a) =>
      typeof a === 'string'
        ? { name: tool?.name ?? 'act', args: { [textArg ?? 'command']: a } }
        : a,
    );
    return {
      spec: composeSpec(ctx.baseSpec, {
        stage: actions,
        contracts: p.rules_code.trim() ? [p.rules_code] : [],
      }),
      rationale: p.rationale,
      template: 'llm',
      params: { diagnosis: p.diagnosis.label } as Json,
    };
  }

  async diagnose(ctx: DesignContext): Promise<DiagnosisReport> {
    const p = await this.call(
      ctx,
      PROPOSE_TOOL,
      ProposeCandidateSchema,
      `${this.brief(ctx)}\n\nDiagnose the policy and propose your first candidate.`,
    );
    const rate = ctx.baseline.stats.successRate;
    const [lo, hi] = ctx.constraints.band;
    this.pending = this.toDraft(ctx, p);
    return {
      axis: p.diagnosis.axis,
      label: p.diagnosis.label,
      description: p.diagnosis.description,
      // Taken as the model wrote them: the checker (gateDiagnosis) removes what the trajectories
      // contradict before the diagnosis is stored, and records why.
      evidence: p.diagnosis.evidence,
      claims: p.diagnosis.absences.map(({ except, ...a }) => ({
        kind: 'absent' as const,
        ...a,
        ...(except?.length ? { except } : {}),
      })),
      direction: rate === null || rate < lo ? 'scaffold' : rate > hi ? 'harder' : 'none',
    };
  }

  async write(ctx: DesignContext): Promise<CandidateDraft | undefined> {
    if (this.pending) {
      const first = this.pending;
      this.pending = undefined;
      return first;
    }
    const last = ctx.attempts.at(-1);
    const history = ctx.attempts
      .map(
        (a) =>
          `#${a.iteration + 1} ${a.decision}: ${a.feedback}\n  rationale: ${a.candidate.rationale}\n  spec: ${JSON.stringify(a.candidate.spec).slice(0, 2000)}`,
      )
      .join('\n');
    const traces = last?.validation
      ? `\nTrajectories of the last candidate:\n${render(last.validation)}`
      : '';
    const p = await this.call(
      ctx,
      PROPOSE_TOOL,
      ProposeCandidateSchema,
      `${this.brief(ctx)}\n\nEarlier candidates:\n${history}${traces}\n\nPropose the next candidate, repairing what the feedback says.`,
    );
    return this.toDraft(ctx, p);
  }

  async decide(ctx: DesignContext, attempt: Attempt, rule: TraceVerdict): Promise<TraceVerdict> {
    if (!attempt.validation) return rule;
    return this.call(
      ctx,
      DECIDE_TOOL,
      DecideOnTracesSchema,
      `${this.brief(ctx)}\n\nCandidate rationale: ${attempt.candidate.rationale}\nValidation (K fresh rollouts):\n${render(attempt.validation)}\nThe statistics rule says: ${rule.decision} — ${rule.feedback}\nDecide on these traces.`,
    );
  }
}
