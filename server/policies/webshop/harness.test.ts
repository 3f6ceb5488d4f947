// The webshop bridge inside a harness stack, through createHarness:
// chain(sequential, contract(stage(webshop)), toy24). Stage runs the search before the agent's first
// step (not counted), Contract refuses Buy Now until an option is chosen, Chain then asks for a 24.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtInBridges } from '../../../bridges/index.ts';
import {
  allTasks,
  configureWebshop,
  findProduct,
  shutdownWebshopRuntime,
  type WebshopState,
} from '../../../bridges/webshop/index.ts';
import { createHarness } from '../../harness/index.ts';
import type { HarnessSpec } from '../../harness/spec.ts';

vi.setConfig({ testTimeout: 180_000 });
beforeAll(() => configureWebshop({ idleMs: 60_000 }));
afterAll(() => shutdownWebshopRuntime());

const act = (command: string) => ({ name: 'act', args: { command } });

const BUY_GUARD = `
export function filterAction(action, state) {
  const command = String(action.args.command ?? action.args.element ?? '').toLowerCase();
  if (state.page === 'item' && /buy now/.test(command) && Object.keys(state.selectedOptions).length === 0) {
    return { blocked: 'Choose the options you need before buying.' };
  }
  return action;
}
`;

const task = allTasks().find(
  (t) => Object.keys(t.goal.options).length === 1 && t.goal.attributes.length === 1,
)!;
const product = findProduct(task.goal.asin)!;

function spec(): HarnessSpec {
  return {
    version: 1,
    env: {
      type: 'chain',
      mode: 'sequential',
      carryContext: true,
      first: {
        type: 'contract',
        code: BUY_GUARD,
        env: {
          type: 'stage',
          actions: [act(`search[${product.title}]`)],
          env: { type: 'base', bridge: 'webshop', task: task.info.id },
        },
      },
      second: { type: 'base', bridge: 'toy24', task: '1-2-3-4' },
    },
  };
}

describe('webshop in a Stage / Contract / Chain harness', () => {
  it('stages the search, blocks an option-less purchase, and chains into toy24', async () => {
    const h = await createHarness(spec(), { bridges: builtInBridges });
    try {
      const start = await h.reset({ seed: 0 });
      expect(h.agentSteps).toBe(0);
      // The agent's first observation is the reset one; the info is the post-set-up page's.
      expect(start.observation.text).toContain(task.goal.instruction);
      expect(start.info.admissibleCommands).toContain(`click[${product.asin.toLowerCase()}]`);
      expect((h.getEnvState() as WebshopState).query).toBe(product.title);
      expect(h.textTool()).toEqual({ name: 'act', arg: 'command' });

      await h.step(act(`click[${product.asin}]`));
      const blocked = await h.step(act('click[buy now]'));
      expect(blocked.record.blocked).toBe('Choose the options you need before buying.');
      expect(blocked.record.executedAction).toBeNull();
      expect((h.getEnvState() as WebshopState).purchased).toBeNull();

      const [value] = Object.values(task.goal.options);
      await h.step(act(`click[${value}]`));
      const bought = await h.step(act('click[buy now]'));
      expect(bought.terminated).toBe(false); // the chain masks the first leg's end
      expect(bought.observation.text).toContain('1 2 3 4');
      expect(h.textTool()).toEqual({ name: 'combine', arg: 'expression' });

      for (const e of ['1 * 2', '2 * 3', '6 * 4'])
        await h.step({ name: 'combine', args: { expression: e } });
      const ev = await h.evaluate();
      expect(ev.success).toBe(true);
      expect(ev.metrics).toMatchObject({ leg0_success: 1, leg0_score: 1, leg1_success: 1 });
      expect(h.agentSteps).toBe(7);
      expect(h.toSpec()).toEqual(spec());
    } finally {
      await h.close();
    }
  });
});
