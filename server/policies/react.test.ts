import { describe, expect, it } from 'vitest';
import { codeRepairBridge } from '../../bridges/code-repair/index.ts';
import { householdBridge } from '../../bridges/household/index.ts';
import { toy24Bridge } from '../../bridges/toy24/index.ts';
import { webshopBridge } from '../../bridges/webshop/index.ts';
import {
  actionLineOf,
  describeTools,
  fewShotExamples,
  parseReply,
  type ReactContext,
} from './react.ts';

const household: ReactContext = {
  tools: householdBridge.tools(),
  textTool: householdBridge.textTool,
  admissible: ['go to cabinet 1', 'go to countertop 1', 'look', 'inventory'],
};
const toy24: ReactContext = { tools: toy24Bridge.tools(), textTool: toy24Bridge.textTool };
const webshop: ReactContext = { tools: webshopBridge.tools(), textTool: webshopBridge.textTool };
const codeRepair: ReactContext = { tools: codeRepairBridge.tools() };
const act = (command: string) => ({ name: 'act', args: { command } });

describe('reading one action from a ReAct reply', () => {
  it('takes the first Action: line, ignoring a made-up observation after it', () => {
    const r = parseReply(
      'Thought: the mug may be in a cabinet.\nAction: go to cabinet 1\nObservation: You arrive at cabinet 1.\nAction: open cabinet 1',
      household,
    );
    expect(r).toMatchObject({ kind: 'action', action: act('go to cabinet 1'), strong: true });
  });

  it('takes a bare command on the last line, "> " as in ALFWorld prompts', () => {
    expect(parseReply('I will check the counter.\n> go to countertop 1', household)).toMatchObject({
      kind: 'action',
      action: act('go to countertop 1'),
      strong: true,
    });
    // Without ">" a bare line is strong evidence only when it is an admissible command.
    expect(parseReply('go to cabinet 1', household)).toMatchObject({ strong: true });
    expect(parseReply('Let me look around the room.', household)).toMatchObject({
      kind: 'action',
      action: act('Let me look around the room'),
      strong: false,
    });
  });

  it('takes a fenced command and a JSON tool call written in text', () => {
    expect(parseReply('Next:\n```\ngo to cabinet 1\n```', household)).toMatchObject({
      action: act('go to cabinet 1'),
    });
    expect(
      parseReply(
        '<tool_call>\n{"name": "act", "arguments": {"command": "look"}}\n</tool_call>',
        household,
      ),
    ).toMatchObject({ kind: 'action', action: act('look'), strong: true });
    expect(
      parseReply(
        '```json\n{"name": "combine", "arguments": {"a": 8, "op": "-", "b": 4}}\n```',
        toy24,
      ),
    ).toMatchObject({ action: { name: 'combine', args: { a: 8, op: '-', b: 4 } } });
    expect(
      parseReply(
        'Calling it: {"function": {"name": "act", "arguments": "{\\"command\\": \\"inventory\\"}"}}',
        household,
      ),
    ).toMatchObject({ action: act('inventory') });
  });

  it('reads calls of named tools in several spellings', () => {
    expect(parseReply('Action: 8 - 4', toy24)).toMatchObject({
      action: { name: 'combine', args: { expression: '8 - 4' } },
    });
    expect(parseReply('Action: combine(a=8, op="-", b=4)', toy24)).toMatchObject({
      action: { name: 'combine', args: { a: 8, op: '-', b: 4 } },
    });
    expect(parseReply('Action: search[red running shoes]', webshop)).toMatchObject({
      action: { name: 'search', args: { query: 'red running shoes' } },
    });
    expect(parseReply('Action: act {"command": "open cabinet 1"}', household)).toMatchObject({
      action: act('open cabinet 1'),
    });
    // LangChain's two-line form.
    expect(parseReply('Action: act\nAction Input: {"command": "look"}', household)).toMatchObject({
      action: act('look'),
    });
  });

  it('reads think: as a thought (ALFWorld ReAct), and think + "> action" as the action', () => {
    expect(parseReply('think: The mug is probably in a cabinet.', household)).toEqual({
      kind: 'think',
      thought: 'The mug is probably in a cabinet.',
    });
    expect(parseReply('> think: first the counter', household)).toMatchObject({ kind: 'think' });
    expect(parseReply('think: first the counter\n> go to countertop 1', household)).toMatchObject({
      kind: 'action',
      action: act('go to countertop 1'),
    });
  });

  it('says why there is no action: empty, unknown tool, unreadable arguments', () => {
    expect(parseReply('   ', household)).toEqual({ kind: 'none', reason: 'empty reply' });
    expect(parseReply('Action: teleport {"to": "x"}', toy24)).toMatchObject({
      kind: 'bad',
      reason: "unknown tool 'teleport'; available: combine",
    });
    // Without a text tool, a line that is no call of a tool cannot be an action.
    expect(parseReply('Action: fix the bug', codeRepair)).toMatchObject({
      kind: 'bad',
      reason: expect.stringMatching(/cannot read an action from 'fix the bug'/),
    });
    expect(
      parseReply('<tool_call>{"name": "fly", "arguments": {}}</tool_call>', household),
    ).toMatchObject({ kind: 'bad', reason: "unknown tool 'fly'; available: act" });
    expect(parseReply('Action: combine {"a": 8,', toy24)).toMatchObject({
      kind: 'bad',
      reason: expect.stringMatching(/not valid JSON/),
    });
  });
});

describe('the ReAct prompt', () => {
  it('describes every tool with its arguments and how to write an action line', () => {
    const text = describeTools(webshop.tools, webshop.textTool);
    expect(text).toContain('- search:');
    expect(text).toContain('query (string, required)');
    expect(text).toContain('"Action: <command>" or "> <command>"');
    expect(text).toMatch(/Action: <tool> \{<arguments as JSON>\}/);
  });

  it('re-tells a tool call as an action line', () => {
    expect(actionLineOf(act('look'), household.textTool)).toBe('Action: look');
    expect(actionLineOf({ name: 'search', args: { query: 'x' } }, webshop.textTool)).toBe(
      'Action: search {"query":"x"}',
    );
  });

  it('loads the bridge prompt file (our own ALFWorld-style household examples), none for others', () => {
    const examples = fewShotExamples('household') ?? '';
    expect(examples.startsWith('Example 1.')).toBe(true);
    expect(examples).toContain('> think: ');
    expect(examples).toContain('\nOK.\n');
    expect(examples).toContain('Your task is to: clean some pot and put it in diningtable.');
    expect(fewShotExamples('toy24')).toContain('> 10 - 4');
    expect(fewShotExamples('spreadsheet')).toBeUndefined();
    expect(fewShotExamples('../etc/passwd')).toBeUndefined();
  });

  it('every command of the household examples is one the household bridge accepts', async () => {
    // The examples replay on the bridge itself: what they show is what the simulator says. They are
    // written by scripts/react-household-examples.ts; a simulator change that alters them fails here.
    const text = fewShotExamples('household') ?? '';
    const episodes = text.split(/^Example \d+\.$/m).filter((e) => e.trim());
    expect(episodes).toHaveLength(3);
    const tasks = ['train-0003', 'train-0012', 'train-0015'];
    for (const [i, episode] of episodes.entries()) {
      const env = await householdBridge.create();
      const start = await env.reset({ taskId: tasks[i] ?? '', seed: 0 });
      expect(start.observation.text).toContain(episode.trim().split('\n')[0] ?? '-');
      const lines = episode.trim().split('\n');
      for (const [k, line] of lines.entries()) {
        if (!line.startsWith('> ') || line.startsWith('> think:')) continue;
        const r = await env.step(act(line.slice(2)));
        expect(r.observation.text).toBe(lines[k + 1]);
      }
      expect((await env.evaluate()).success).toBe(true);
      await env.close();
    }
  });

  it('the toy24 examples replay on the toy24 bridge, move by move', async () => {
    const text = fewShotExamples('toy24') ?? '';
    const episodes = text.split(/^Example \d+\.$/m).filter((e) => e.trim());
    expect(episodes).toHaveLength(2);
    for (const [i, episode] of episodes.entries()) {
      const env = await toy24Bridge.create();
      await env.reset({ taskId: ['3-4-6-10', '2-5-8-9'][i] ?? '', seed: 0 });
      const lines = episode.trim().split('\n');
      for (const [k, line] of lines.entries()) {
        if (!line.startsWith('> ') || line.startsWith('> think:')) continue;
        const r = await env.step({ name: 'combine', args: { expression: line.slice(2) } });
        expect(r.observation.text).toBe(lines[k + 1]);
      }
      expect((await env.evaluate()).success).toBe(true);
      await env.close();
    }
  });
});
