// Every CLI command, by name. Add a command: one file exporting `command`, one line here and its
// summary in `summaries` (index.test.ts checks that the two agree).
import type { Command } from '../command.ts';

export const commands: Record<string, () => Promise<{ command: Command }>> = {
  bridges: () => import('./bridges.ts'),
  tasks: () => import('./tasks.ts'),
  check: () => import('./check.ts'),
  step: () => import('./step.ts'),
  validate: () => import('./validate.ts'),
  play: () => import('./play.ts'),
  rollout: () => import('./rollout.ts'),
  policies: () => import('./policies.ts'),
  runs: () => import('./runs.ts'),
  resume: () => import('./resume.ts'),
  show: () => import('./show.ts'),
  export: () => import('./export.ts'),
  worker: () => import('./worker.ts'),
  skills: () => import('./skills.ts'),
  rig: () => import('./rig.ts'),
  calibrate: () => import('./calibrate.ts'),
  harnesses: () => import('./harnesses.ts'),
  harness: () => import('./harness.ts'),
  decide: () => import('./decide.ts'),
  serve: () => import('./serve.ts'),
  lint: () => import('./lint.ts'),
  audit: () => import('./audit.ts'),
};

/**
 * Each command's one-line summary, as its module says it: `harness --help` prints these without
 * loading any command (every module loaded would cost start-up time).
 */
export const summaries: Record<string, string> = {
  bridges: 'List the benchmark bridges: name, description, task count, splits and tools.',
  tasks: "List a bridge's tasks, optionally of one split or type.",
  check: 'Run the ActionableEnv contract suite on a bridge; exit 0 only when every check passes.',
  step: 'Reset a harness (spec file or bridge:task), replay actions from a file, print every step as JSON.',
  validate: 'Check that a harness spec runs (hooks compile, tasks exist, a dry episode plays).',
  play: 'Play a harness (spec file or bridge:task) yourself in the terminal.',
  rollout:
    'Run a policy on a spec for K seeds, record every episode, print success rate and metrics.',
  policies: 'List every policy id usable with --policy (optionally for one bridge).',
  runs: 'List recorded runs, newest first.',
  resume: 'Finish an unfinished run: re-dispatch its unfinished episodes, wait, print the report.',
  show: "Show a run: settings, metrics and every episode's outcome.",
  export: 'Export a run as JSON Lines: one episode per line with its whole trajectory.',
  worker:
    'Consume rollout episodes and rig jobs from BullMQ (REDIS_URL) and record them in the shared database.',
  skills:
    'Skill banks (EvoHarness experience): compare skill sources, extract a bank from a run, list, show.',
  rig: 'EnvRigger: observe a policy, diagnose it, write and validate harness candidates until one lands in the band.',
  calibrate:
    'EnvRigger over a split: share of tasks whose success rate lies in the band, before and after, with the settings and the mix of accepted templates.',
  harnesses: 'List the harness library: harnesses, their status and latest version.',
  harness: 'Show a harness: every version, its status, decisions and what approving would need.',
  decide: 'Approve or reject a rig candidate or a harness version, or reverse a decision.',
  serve: 'Serve a harness as an OpenEnv environment (HTTP routes + WebSocket /ws) for trainers.',
  lint: 'Prove a harness is still solvable by replaying known winning sequences (exit 1 when refuted).',
  audit:
    "Audit a bridge's (or a harness's) verifier: gold passes, empty and perturbed gold fail, reward agrees with the verdict.",
};
