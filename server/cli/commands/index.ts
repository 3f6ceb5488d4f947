// Every CLI command, by name. Add a command: one file exporting `command`, one line here.
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
