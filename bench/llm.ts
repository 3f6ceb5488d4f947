// The openai policy's own cost, against the fake OpenAI-compatible server (no model: what is
// measured is the policy, its HTTP and the environment): per-step wall time in tools mode and in
// ReAct text mode (auto on a server without tool calling), the ReAct prompt's size with the
// household few-shot examples, and how fast replies are read for an action.
// `npx tsx bench/llm.ts` runs it alone.
import { pathToFileURL } from 'node:url';
import { householdBridge } from '../bridges/household/index.ts';
import { openaiPolicy } from '../server/policies/openai-policy.ts';
import { parseReply } from '../server/policies/react.ts';
import { type FakeMode, startFakeModel } from '../server/policies/testing/fake-openai.ts';
import { play } from '../server/policies/testing/play.ts';
import type { BenchRow } from './row.ts';

type Row = BenchRow & { id: string };

const REPLIES = [
  'Thought: the mug may be in a cabinet.\nAction: go to cabinet 1',
  '> go to countertop 1',
  'think: first the countertop, then the cabinets.',
  '<tool_call>\n{"name": "act", "arguments": {"command": "open cabinet 1"}}\n</tool_call>',
  'I will look around.\n```\nlook\n```',
  'Action: act {"command": "take mug 1 from cabinet 1"}',
  'I am not sure what to do.',
];

function benchParse(): Row {
  const ctx = {
    tools: householdBridge.tools(),
    textTool: householdBridge.textTool,
    admissible: ['go to cabinet 1', 'go to countertop 1', 'look'],
  };
  const n = 20_000;
  const started = performance.now();
  for (let i = 0; i < n; i++) parseReply(REPLIES[i % REPLIES.length] ?? '', ctx);
  const us = ((performance.now() - started) * 1000) / n;
  return {
    id: 'llm.react.parse',
    name: 'ReAct reply read for one action',
    value: us,
    unit: 'µs/reply',
    note: `${REPLIES.length} reply shapes`,
  };
}

async function benchEpisodes(modes: FakeMode[], mode: string, steps: number) {
  const fake = await startFakeModel(modes);
  try {
    const [task] = await householdBridge.listTasks({ split: 'eval_seen' });
    const episodes = 3;
    const started = performance.now();
    for (let seed = 0; seed < episodes; seed++) {
      await play(householdBridge, openaiPolicy('fake-model'), {
        taskId: task?.id ?? '',
        seed,
        maxSteps: steps,
        options: { baseUrl: fake.url, apiKey: 'k', mode: 'auto' },
      });
    }
    const ms = (performance.now() - started) / (episodes * steps);
    const prompt = fake.chatRequests().at(-1)?.messages?.[0]?.content;
    return { ms, systemChars: typeof prompt === 'string' ? prompt.length : 0, mode };
  } finally {
    await fake.close();
  }
}

export async function benchLlm(): Promise<Row[]> {
  const steps = 20;
  // Warm-up (module loading, JIT, the first connections), not measured.
  await benchEpisodes(['tools'], 'tools', 5);
  const tools = await benchEpisodes(['tools', 'usage'], 'tools', steps);
  const react = await benchEpisodes(['no-tools', 'usage'], 'react', steps);
  return [
    {
      id: 'llm.step.tools',
      name: 'openai policy step, tool calls (fake endpoint, household)',
      value: tools.ms,
      unit: 'ms/step',
      note: `3 episodes × ${steps} steps; HTTP to a local fake + environment step`,
    },
    {
      id: 'llm.step.react',
      name: 'openai policy step, auto → ReAct text (fake without tools)',
      value: react.ms,
      unit: 'ms/step',
      note: 'one refused request per episode (no run memory in a bare loop)',
    },
    {
      id: 'llm.prompt.react-household',
      name: 'ReAct system prompt with the household few-shot examples',
      value: react.systemChars,
      unit: 'chars',
      note: `tools-mode system prompt: ${tools.systemChars} chars`,
    },
    benchParse(),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchLlm()) console.log(row);
  process.exit(0);
}
