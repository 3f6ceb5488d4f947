// The `openai:<model>` policy as the registry sees it: descriptor, options and their check. Its
// session (openai.ts, with the OpenAI SDK) loads when an episode starts one.
import { firstIssue } from '../../contracts/issues.ts';
import { OpenAIOptionsSchema, openaiOptionProblems } from './openai-options.ts';
import {
  type AgentSession,
  type Policy,
  type PolicyContext,
  type PolicyDescriptor,
  PolicyInfraError,
} from './types.ts';

export { type OpenAIOptions, OpenAIOptionsSchema, openaiOptionProblems } from './openai-options.ts';

export function openaiDescriptor(model: string): PolicyDescriptor {
  return {
    id: `openai:${model}`,
    kind: 'openai',
    description: `LLM agent '${model}' on an OpenAI-compatible chat-completions endpoint: tool calls, or ReAct text when the endpoint has no tool calling (mode auto).`,
  };
}

export function openaiPolicy(model: string): Policy {
  return {
    descriptor: openaiDescriptor(model),
    checkOptions: openaiOptionProblems,
    async start(context: PolicyContext): Promise<AgentSession> {
      const parsed = OpenAIOptionsSchema.safeParse(context.options ?? {});
      if (!parsed.success) {
        throw new PolicyInfraError(`openai policy options: ${firstIssue(parsed.error)}`);
      }
      // The session and the SDK under it load with the first episode of an openai policy, not
      // with the policy registry that every rollout imports.
      const { OpenAISession } = await import('./openai.ts');
      return new OpenAISession(model, context, parsed.data);
    },
  };
}
