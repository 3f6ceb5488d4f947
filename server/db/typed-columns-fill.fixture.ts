// The typed_columns migration test's fixture: rows as the code before that migration wrote them.

const spec = { version: 1, env: { type: 'base', bridge: 'counter', task: 'reach-3' } };
const ended = (id: string, ordinal: number, outcome: string, failureCategory: string | null) => ({
  episodeId: id,
  ordinal,
  taskId: 'reach-3',
  seed: ordinal,
  outcome,
  failureCategory,
  errorKind: null,
  error: null,
  steps: 3,
  reward: 0.5,
  durationMs: 12,
});
const q = (v: unknown) => `'${JSON.stringify(v).replaceAll("'", "''")}'::jsonb`;

/**
 * Rows as the code before the migration wrote them (enum-like values as text, the run's policy
 * options and loop limit inside "rewardParams"), with one legacy out-of-set value per column.
 */
export const FILL = `
INSERT INTO "Run" ("id", "policy", "spec", "taskIds", "k", "seeds", "maxSteps", "rewardParams", "status", "episodesTotal", "episodesDone") VALUES
  ('run-opts', 'bpe(scripted:household-explorer)', ${q(spec)}, '{reach-3}', 7, '{0,1,2,3,4,5,6}', 10,
    ${q({ lambdaEff: 0.5, update: 3, invalidLoopLimit: 7, policyOptions: { skillBankId: 'bank-manual', tags: ['open', 'look'] } })}, 'completed', 7, 6),
  ('run-plain', 'test:inc', ${q(spec)}, '{reach-3}', 1, '{0}', 10, '{}'::jsonb, 'queued', 0, 0),
  ('run-odd', 'test:inc', ${q(spec)}, '{reach-3}', 1, '{0}', 10,
    ${q({ tMax: 40, invalidLoopLimit: 2.5, policyOptions: null })}, 'queued', 0, 0);

INSERT INTO "Episode" ("id", "runId", "taskId", "seed", "ordinal", "status", "outcome", "failureCategory", "steps", "reward") VALUES
  ('ep-0', 'run-opts', 'reach-3', 0, 0, 'done', 'success', NULL, 3, 10),
  ('ep-1', 'run-opts', 'reach-3', 1, 1, 'done', 'failure', 'step_budget_exhausted', 10, 0),
  ('ep-2', 'run-opts', 'reach-3', 2, 2, 'done', 'failure', 'gave_up', 2, 0),
  ('ep-3', 'run-opts', 'reach-3', 3, 3, 'done', 'failure', 'wrong_final_state', 4, 0),
  ('ep-4', 'run-opts', 'reach-3', 4, 4, 'done', 'failure', 'invalid_action_loop', 5, 0),
  ('ep-5', 'run-opts', 'reach-3', 5, 5, 'done', 'failure', 'timeout', 10, 0),
  ('ep-6', 'run-opts', 'reach-3', 6, 6, 'queued', NULL, NULL, 0, NULL);

INSERT INTO "Step" ("episodeId", "index", "action", "observation", "reward", "terminated", "truncated", "changes", "info") VALUES
  ('ep-0', 0, ${q({ name: 'inc', args: {} })}, 'value 1', 0, false, false, '[]'::jsonb, '{}'::jsonb);

INSERT INTO "RunEvent" ("runId", "type", "payload") VALUES
  ('run-opts', 'run_started', '{}'::jsonb),
  ('run-opts', 'episode_started', ${q({ episodeId: 'ep-0', ordinal: 0, taskId: 'reach-3', seed: 0, attempt: 1, workerId: 'w1' })}),
  ('run-opts', 'episode_ended', ${q(ended('ep-0', 0, 'success', null))}),
  ('run-opts', 'episode_ended', ${q(ended('ep-1', 1, 'failure', 'step_budget_exhausted'))}),
  ('run-opts', 'episode_ended', ${q(ended('ep-5', 5, 'failure', 'timeout'))}),
  ('run-opts', 'episode_step', ${q({ episodeId: 'ep-5', index: 0 })}),
  ('run-opts', 'run_progress', ${q({ done: 6, total: 7 })}),
  ('run-opts', 'run_completed', ${q({ status: 'completed', done: 6, total: 7 })});

INSERT INTO "Rig" ("id", "bridge", "taskId", "policy", "designer", "k", "maxIterations", "constraints") VALUES
  ('rig-h', 'household', 'pick_0', 'scripted:household-never-opens', 'heuristic', 5, 3, ${q({ band: [0.4, 0.6] })}),
  ('rig-l', 'household', 'pick_0', 'scripted:household-never-opens', 'llm', 5, 3, ${q({ band: [0.4, 0.6], defect: 'never opens' })}),
  ('rig-x', 'household', 'pick_0', 'scripted:household-never-opens', 'gpt-designer', 5, 3, ${q({ band: [0.2, 0.8] })});

INSERT INTO "Diagnosis" ("id", "rigId", "round", "axis", "label", "description", "evidence", "report") VALUES
  ('dg-1', 'rig-h', 0, 'start_state', 's', 'd', '[]'::jsonb, NULL),
  ('dg-2', 'rig-h', 1, 'action', 'a', 'd', ${q([{ episodeId: 'ep-1', step: 2 }])}, ${q({ n: 5 })}),
  ('dg-3', 'rig-h', 2, 'observation', 'o', 'd', '[]'::jsonb, NULL),
  ('dg-4', 'rig-h', 3, 'transition', 't', 'd', '[]'::jsonb, NULL),
  ('dg-5', 'rig-h', 4, 'task_understanding', 'u', 'd', '[]'::jsonb, NULL),
  ('dg-6', 'rig-h', 5, 'none', 'n', 'd', '[]'::jsonb, NULL),
  ('dg-7', 'rig-l', 0, 'S0', 's', 'd', '[]'::jsonb, NULL),
  ('dg-8', 'rig-l', 1, 'A', 'a', 'd', '[]'::jsonb, NULL),
  ('dg-9', 'rig-l', 2, 'O', 'o', 'd', '[]'::jsonb, NULL),
  ('dg-a', 'rig-l', 3, 'T', 't', 'd', '[]'::jsonb, NULL),
  ('dg-b', 'rig-l', 4, 'task', 'u', 'd', '[]'::jsonb, NULL),
  ('dg-c', 'rig-x', 0, 'reward_hacking', 'r', 'd', '[]'::jsonb, NULL),
  ('dg-d', 'rig-x', 1, 'mystery', 'm', 'd', '[]'::jsonb, ${q({ stats: 1 })});

INSERT INTO "SkillBank" ("id", "name", "bridge", "source", "config") VALUES
  ('bank-manual', 'by hand', 'household', 'manual', '{}'::jsonb),
  ('bank-original', 'original skills', 'household', 'original', ${q({ policy: 'p' })}),
  ('bank-envharness', 'envharness skills', 'household', 'envharness', ${q({ policy: 'p' })}),
  ('bank-run', 'skills from a run', 'household', 'run', ${q({ runId: 'run-opts' })}),
  ('bank-legacy', 'imported', NULL, 'imported', ${q({ from: 'old' })});

INSERT INTO "Skill" ("id", "bankId", "category", "taskType", "title", "description", "content", "sourceEpisodeIds", "uses", "createdAt", "updatedAt") VALUES
  ('sk-1', 'bank-manual', 'general', NULL, 'Look first', 'd', 'look around first', '{ep-0}', 2, '2026-11-30 10:00:01', now()),
  ('sk-2', 'bank-manual', 'task', 'pick', 'Open receptacles', 'd', 'open every closed receptacle', '{ep-1,ep-2}', 0, '2026-11-30 10:00:02', now()),
  ('sk-3', 'bank-manual', 'mistake', NULL, 'Do not loop', 'd', 'stop repeating an invalid action', '{}', 1, '2026-11-30 10:00:03', now()),
  ('sk-4', 'bank-manual', 'prior', 'pick', 'Fridge', 'd', 'apples are in the fridge', '{}', 0, '2026-11-30 10:00:04', now()),
  ('sk-5', 'bank-manual', 'tactic', NULL, 'Legacy', 'd', 'a skill of an old category', '{}', 0, '2026-11-30 10:00:05', now());

INSERT INTO "SkillEdit" ("bankId", "skillId", "op", "before", "after", "reason") VALUES
  ('bank-manual', 'sk-1', 'add', NULL, ${q({ title: 'Look first' })}, 'new'),
  ('bank-manual', 'sk-2', 'update', ${q({ title: 'Open' })}, ${q({ title: 'Open receptacles' })}, 'clearer'),
  ('bank-manual', 'sk-3', 'merge', ${q([{ id: 'x' }, { id: 'y' }])}, ${q({ title: 'Do not loop' })}, 'same advice'),
  ('bank-manual', NULL, 'delete', ${q({ title: 'Gone' })}, NULL, 'wrong'),
  ('bank-manual', 'sk-4', 'rename', NULL, NULL, 'renamed');
`;
