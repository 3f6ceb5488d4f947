import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../policies/testing/fake-openai.ts';
import { proposeEdits, SkillBankState } from './bank.ts';
import { consolidateWithLlm, extractWithLlm } from './llm.ts';
import type { EpisodeDigest } from './types.ts';

const digest: EpisodeDigest = {
  id: 'ep-1',
  bridge: 'household',
  taskId: 'train-0001',
  taskType: 'pick_and_place_simple',
  goal: 'put a mug in cabinet',
  success: false,
  steps: 2,
  failureCategory: 'gave_up',
  steps_: [
    {
      command: 'go to drawer 1',
      observation: 'You arrive at drawer 1. The drawer 1 is closed.',
      invalid: false,
      meta: false,
    },
    {
      command: 'go to countertop 1',
      observation: 'You arrive at countertop 1. On the countertop 1, you see a knife 1.',
      invalid: false,
      meta: false,
    },
  ],
  initialObservation: '',
  notes: ['drawers were never opened'],
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('LLM extractor (OpenAI-compatible, forced tool calls)', () => {
  it('sends the trajectories, forces propose_skills and keeps only real evidence', async () => {
    const fake = await startFakeOpenAI([
      {
        toolCalls: [
          {
            name: 'propose_skills',
            arguments: {
              skills: [
                {
                  category: 'mistake',
                  title: 'Open drawers',
                  description: 'The mug was never found',
                  content: 'When the target is not visible, open closed drawers.',
                  sourceEpisodeIds: ['ep-1', 'ep-404'],
                },
                {
                  category: 'prior',
                  title: 'Mugs',
                  content: 'Search order for mug: cabinet > countertop',
                },
              ],
            },
          },
        ],
      },
    ]);
    close = fake.close;
    const drafts = await extractWithLlm([digest], { baseUrl: fake.url, model: 'm', apiKey: 'k' });
    expect(drafts).toHaveLength(2);
    expect(drafts[0]?.sourceEpisodeIds).toEqual(['ep-1']);
    const req = fake.chatRequests()[0];
    expect(req?.tool_choice).toEqual({ type: 'function', function: { name: 'propose_skills' } });
    const user = String(req?.messages?.[1]?.content ?? '');
    expect(user).toMatch(/Episode ep-1 \(pick_and_place_simple\) goal: put a mug in cabinet/);
    expect(user).toMatch(/FAILURE \(gave_up\)/);
    expect(user).toMatch(/Agent notes: drawers were never opened/);
  });

  it("asks for JSON in text when the endpoint refuses tools (the policies' fallback)", async () => {
    const fake = await startFakeOpenAI([
      {
        status: 400,
        body: {
          object: 'error',
          message: 'tool_choice is not supported by this server',
          code: 400,
        },
      },
      {
        content:
          '```json\n{"skills": [{"category": "general", "title": "Look first", "content": "Look around before acting."}]}\n```',
      },
    ]);
    close = fake.close;
    const drafts = await extractWithLlm([digest], { baseUrl: fake.url, model: 'm', apiKey: 'k' });
    expect(drafts.map((d) => d.title)).toEqual(['Look first']);
    const [refused, retried] = fake.chatRequests();
    expect(refused?.tools).toHaveLength(1);
    expect(retried?.tools).toBeUndefined();
    expect(String(retried?.messages?.[0]?.content)).toContain('arguments of propose_skills');
  });

  it('rejects a reply that breaks the schema with a clear message', async () => {
    const fake = await startFakeOpenAI([
      {
        toolCalls: [
          {
            name: 'propose_skills',
            arguments: { skills: [{ category: 'wisdom', title: 'x', content: 'y' }] },
          },
        ],
      },
    ]);
    close = fake.close;
    await expect(extractWithLlm([digest], { baseUrl: fake.url, model: 'm' })).rejects.toThrow(
      /propose_skills arguments invalid at skills\.0\.category/,
    );
  });

  it('consolidation edits from the model are validated by the bank', async () => {
    const bank = new SkillBankState();
    bank.apply(proposeEdits(bank, [], ['open drawers first']));
    const id = bank.skills[0]?.id ?? '';
    const fake = await startFakeOpenAI([
      {
        toolCalls: [
          {
            name: 'propose_edits',
            arguments: {
              edits: [
                {
                  op: 'update',
                  id,
                  patch: { content: 'Open closed drawers first when the target is unseen.' },
                },
                { op: 'delete', id: 'made-up-id' },
              ],
            },
          },
        ],
      },
    ]);
    close = fake.close;
    const edits = await consolidateWithLlm(bank.skills, ['and cabinets'], {
      baseUrl: fake.url,
      model: 'm',
    });
    const r = bank.apply(edits);
    expect(r.applied.map((e) => e.op)).toEqual(['update']);
    expect(r.rejected.map((e) => e.reason)).toEqual(["no skill with id 'made-up-id'"]);
    expect(bank.skills[0]?.content).toMatch(/Open closed drawers/);
    expect(String(fake.chatRequests()[0]?.messages?.[1]?.content)).toMatch(
      new RegExp(`id=${id} \\[general\\]`),
    );
  });
});
