// The LLM extractor and consolidator (OpenAI-compatible endpoint, forced tool calls). The model
// reads trajectory summaries and proposes skills (strategies from successes, lessons from failures,
// search priors in the `Search order for <object>: a > b` form the tag mapper reads); as consolidator
// it proposes edits, which the bank validates (ids must exist, caps, protected skills).

import type OpenAI from 'openai';
import { z } from 'zod';
import { firstIssue } from '../../contracts/issues.ts';
import { config } from '../config.ts';
import { InvalidInputError } from '../errors.ts';
import {
  describeLlmError,
  jsonAnswerInstruction,
  jsonArgsInText,
  llmClient,
  refusesTools,
  splitReasoning,
} from '../policies/llm-endpoint.ts';
import { PolicyInfraError } from '../policies/types.ts';
import { DraftFields } from './bank.ts';
import type { EpisodeDigest, SkillDraft } from './types.ts';

export interface LlmSettings {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  model?: string | undefined;
}

const ProposalSchema = z.object({
  skills: z.array(z.object(DraftFields)).max(50),
});

const SYSTEM = `You distil reusable skills from agent trajectories (ReasoningBank style) into an experience store with four categories:
general (strategies that hold across tasks), task (how one task type is solved; set taskType), mistake (lessons from failures, phrased as what to do instead), prior (where objects are found; write content exactly as "Search order for <object>: <receptacle> > <receptacle> > ...").
Take strategies from successes and lessons from failures by comparing them. Keep each skill short, concrete and actionable; cite the episode ids it rests on in sourceEpisodeIds. Never invent facts that the trajectories do not show.`;

function summarise(d: EpisodeDigest, maxSteps = 40): string {
  const steps = d.steps_
    .slice(0, maxSteps)
    .map(
      (s, i) => `${i + 1}. > ${s.command}\n   ${s.observation.replace(/\s+/g, ' ').slice(0, 200)}`,
    )
    .join('\n');
  return `Episode ${d.id} (${d.taskType}) goal: ${d.goal}\nResult: ${d.success ? 'SUCCESS' : `FAILURE (${d.failureCategory ?? 'failed'})`} in ${d.steps} steps\n${steps}${
    d.notes.length > 0 ? `\nAgent notes: ${d.notes.join(' | ')}` : ''
  }`;
}

function client(s: LlmSettings): { client: OpenAI; model: string } {
  const c = config();
  const baseURL = s.baseUrl ?? c.OPENAI_BASE_URL;
  const model = s.model ?? c.OPENAI_MODEL;
  if (!baseURL || !model) {
    throw new InvalidInputError(
      'the llm extractor needs OPENAI_BASE_URL and OPENAI_MODEL (or --llm-base-url / --llm-model)',
    );
  }
  return {
    client: llmClient({ baseURL, apiKey: s.apiKey ?? c.OPENAI_API_KEY, maxRetries: 2 }),
    model,
  };
}

async function forcedCall(
  s: LlmSettings,
  user: string,
  tool: { name: string; description: string; parameters: Record<string, unknown> },
): Promise<unknown> {
  const { client: api, model } = client(s);
  const request = (text: boolean) =>
    api.chat.completions.create({
      model,
      temperature: 0,
      messages: [
        { role: 'system', content: text ? `${SYSTEM}\n\n${jsonAnswerInstruction(tool)}` : SYSTEM },
        { role: 'user', content: user },
      ],
      // An endpoint without tool calling gets the tool's schema in the prompt instead.
      ...(text
        ? {}
        : {
            tools: [{ type: 'function' as const, function: tool }],
            tool_choice: { type: 'function' as const, function: { name: tool.name } },
          }),
    });
  let reply: OpenAI.Chat.Completions.ChatCompletion;
  try {
    reply = await request(false).catch((e: unknown) => {
      if (refusesTools(e)) return request(true);
      throw e;
    });
  } catch (e) {
    throw new PolicyInfraError(`skill extractor endpoint failed: ${describeLlmError(e)}`, {
      cause: e,
    });
  }
  const message = reply.choices[0]?.message;
  const call = message?.tool_calls?.[0];
  if (call?.type !== 'function' || call.function.name !== tool.name) {
    const inText = jsonArgsInText(splitReasoning(message ?? { content: null }).content, tool.name);
    if (inText) return inText;
    throw new InvalidInputError(`the skill extractor model did not call ${tool.name}`);
  }
  try {
    return JSON.parse(call.function.arguments) as unknown;
  } catch {
    throw new InvalidInputError(`the skill extractor model sent arguments that are not JSON`);
  }
}

export async function extractWithLlm(
  digests: EpisodeDigest[],
  s: LlmSettings = {},
): Promise<SkillDraft[]> {
  const user = `Trajectories:\n\n${digests.map((d) => summarise(d)).join('\n\n')}\n\nPropose skills with propose_skills.`;
  const args = await forcedCall(s, user, {
    name: 'propose_skills',
    description: 'Propose skills for the experience store.',
    parameters: z.toJSONSchema(ProposalSchema) as Record<string, unknown>,
  });
  const parsed = ProposalSchema.safeParse(args);
  if (!parsed.success) {
    throw new InvalidInputError(`propose_skills arguments invalid at ${firstIssue(parsed.error)}`);
  }
  const known = new Set(digests.map((d) => d.id));
  return parsed.data.skills.map((k) => ({
    category: k.category,
    taskType: k.taskType ?? null,
    title: k.title,
    description: k.description,
    content: k.content,
    // Only episodes that exist count as evidence.
    sourceEpisodeIds: k.sourceEpisodeIds.filter((id) => known.has(id)),
  }));
}

/** Asks the model for consolidation edits over the bank and the queued notes (validated by the bank). */
export async function consolidateWithLlm(
  bank: { id: string; category: string; title: string; content: string; uses: number }[],
  notes: string[],
  s: LlmSettings = {},
): Promise<unknown[]> {
  const user = `Current skills:\n${bank.map((k) => `- id=${k.id} [${k.category}] (uses ${k.uses}) ${k.title}: ${k.content}`).join('\n') || '(empty)'}\n\nQueued notes:\n${
    notes.map((n) => `- ${n}`).join('\n') || '(none)'
  }\n\nReturn edits (add / update / merge / delete) with propose_edits. Use only existing ids; do not delete heavily used skills.`;
  const args = await forcedCall(s, user, {
    name: 'propose_edits',
    description: 'Edits to the experience store.',
    parameters: {
      type: 'object',
      properties: { edits: { type: 'array', items: { type: 'object' } } },
      required: ['edits'],
    },
  });
  const edits = (args as { edits?: unknown }).edits;
  return Array.isArray(edits) ? edits : [];
}
