// The heuristic designer on the webarena and officeqa baselines: each scripted weakness is
// diagnosed under its own label, the diagnosis passes the checker as it is, and the bridge's module
// offers paper-mode candidates (Stage and Contract) for it.
import { afterAll, describe, expect, it } from 'vitest';
import { shutdownWebarenaSites } from '../../bridges/webarena/index.ts';
import { shutdownWebshopRuntime } from '../../bridges/webshop/index.ts';
import { designFor } from './designers/heuristic/bridges.ts';
import { checkDiagnosis } from './diagnosis-check.ts';
import { diagnoseBaseline } from './testing/baseline.ts';
import { withRigServices } from './testing/setup.ts';

const env = withRigServices();
const deps = () => env().services.rigDeps();
afterAll(async () => {
  await shutdownWebshopRuntime();
  await shutdownWebarenaSites();
});

const CASES = [
  {
    task: 'webarena:forum-find-forum-01',
    policy: 'scripted:webarena-no-search',
    label: 'never-uses-search',
  },
  {
    task: 'webarena:gitlab-issue-labels-01',
    policy: 'scripted:webarena-stops-early',
    label: 'answers-from-list-page',
  },
  {
    task: 'webarena:forum-comment-01',
    policy: 'scripted:webarena-no-verify',
    label: 'submits-without-checking',
  },
  {
    task: 'officeqa:oq-growth-01',
    policy: 'scripted:officeqa-first-hit',
    label: 'answers-from-first-hit',
  },
  {
    task: 'officeqa:oq-restated-01',
    policy: 'scripted:officeqa-no-footnotes',
    label: 'ignores-footnotes',
  },
  {
    task: 'officeqa:oq-growth-01',
    policy: 'scripted:officeqa-no-arithmetic',
    label: 'copies-instead-of-computing',
  },
];

describe('webarena and officeqa weaknesses are diagnosed', { timeout: 180_000 }, () => {
  for (const c of CASES) {
    it(`${c.policy} on ${c.task}: ${c.label}`, async () => {
      const { batch, diagnosis } = await diagnoseBaseline(deps(), {
        ...c,
        seeds: [0],
        maxSteps: 20,
      });
      expect(batch.stats.successRate).toBe(0);
      expect(diagnosis.label).toBe(c.label);
      expect(diagnosis.direction).toBe('scaffold');
      expect(checkDiagnosis(diagnosis, batch.episodes)).toEqual([]);
      expect(diagnosis.evidence.length).toBeGreaterThan(0);
      const makers =
        designFor(c.task.split(':')[0] as string)?.structurals(null, {
          label: diagnosis.label,
          direction: 'scaffold',
        }) ?? [];
      expect(makers.length).toBeGreaterThanOrEqual(2);
    });
  }
});
