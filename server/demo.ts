// Demo content for a fresh studio: real baseline runs of scripted policies and one example harness
// with two versions and a validation run — all created through the product's own services, so what
// the demo shows is what the product computes. Skipped when NO_DEMO is set or the database has runs.
import type { Services } from './compose.ts';
import { createHarnessVersion } from './db/queries.ts';
import type { HarnessSpec } from './harness/spec.ts';

const HOUSEHOLD_TASK = 'eval_seen-004';
const TOY24_TASK = '1-1-1-12';

/** The paper's observation trim: keep the first two sentences of every observation. */
const TRIM_CODE = `// Keep observations short: the first two sentences only.
export function filterObservation(observation, state) {
  const sentences = observation.text.match(/[^.!?]+[.!?]+/g);
  if (!sentences || sentences.length <= 2) return observation;
  return { ...observation, text: sentences.slice(0, 2).join('').trim() };
}
`;

const GUARD_CODE = `${TRIM_CODE}
// Refuse commands that cannot work here instead of letting the agent waste a step on them.
export function filterAction(action, state) {
  const command = String(action.args.command ?? '');
  if (/^(heat|cool)\\b/.test(command) && !/microwave|fridge/.test(command)) {
    return { blocked: 'heat with a microwave, cool with a fridge' };
  }
  return action;
}
`;

function contract(code: string, bridge: string, task: string): HarnessSpec {
  return { version: 1, env: { type: 'contract', code, env: { type: 'base', bridge, task } } };
}

export async function loadDemo(services: Services): Promise<string | undefined> {
  const { db, rollouts } = services;
  if ((await db.run.count()) > 0 || (await db.harness.count()) > 0) return undefined;

  const base = (bridge: string, task: string): HarnessSpec => ({
    version: 1,
    env: { type: 'base', bridge, task },
  });
  await rollouts.launchRun({
    spec: base('toy24', TOY24_TASK),
    policy: 'scripted:toy24-random',
    k: 24,
    kind: 'baseline',
    createdBy: 'demo',
  });
  await rollouts.launchRun({
    spec: base('household', HOUSEHOLD_TASK),
    policy: 'scripted:household-no-open',
    k: 12,
    kind: 'baseline',
    createdBy: 'demo',
  });

  const harness = await db.harness.create({
    data: {
      name: 'Short observations, guarded actions',
      bridge: 'household',
      taskId: HOUSEHOLD_TASK,
      description:
        'Example harness: trims observations (Contract), then also refuses impossible heat/cool commands.',
      createdBy: 'demo',
    },
    select: { id: true },
  });
  await createHarnessVersion(db, harness.id, {
    name: 'trim observations',
    spec: contract(TRIM_CODE, 'household', HOUSEHOLD_TASK),
    createdBy: 'demo',
  });
  const v2 = await createHarnessVersion(db, harness.id, {
    name: 'trim + guard',
    spec: contract(GUARD_CODE, 'household', HOUSEHOLD_TASK),
    note: 'adds filterAction',
    createdBy: 'demo',
  });
  await rollouts.launchRun({
    spec: contract(GUARD_CODE, 'household', HOUSEHOLD_TASK),
    policy: 'scripted:household-no-open',
    k: 12,
    kind: 'validation',
    harnessVersionId: v2.id,
    createdBy: 'demo',
  });
  return '3 runs, 1 harness with 2 versions';
}
