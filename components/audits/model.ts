// What the audit page shows of a report: each probe's check as a verdict chip (ok / failed / n/a)
// with the probe episode's outcome, tasks with a problem first. Pure, tested beside it.
import type { AuditProbe, AuditTask, ProbeResult } from '../../contracts/audit.ts';

export const PROBE_COLUMNS: { probe: AuditProbe; title: string; expect: string }[] = [
  {
    probe: 'gold',
    title: 'Gold passes',
    expect: 'the oracle plan or the best recorded success must pass',
  },
  { probe: 'empty', title: 'Empty fails', expect: 'a no-op agent (look, inventory) must not pass' },
  {
    probe: 'perturbed',
    title: 'Perturbed gold fails',
    expect: 'the gold sequence without its last effective action must not pass',
  },
];

export type CheckTone = 'ok' | 'bad' | 'na';

export function checkTone(p: ProbeResult): CheckTone {
  return p.status === 'pass' ? 'ok' : p.status === 'fail' ? 'bad' : 'na';
}

export function checkLabel(p: ProbeResult): string {
  return p.status === 'pass' ? 'ok' : p.status === 'fail' ? 'failed' : 'n/a';
}

/** What the probe episode did: "succeeded in 7 steps", "failed after 2 steps". */
export function probeOutcome(p: ProbeResult): string {
  if (p.success === null) return p.note ?? 'not played';
  const steps = `${p.steps} step${p.steps === 1 ? '' : 's'}`;
  return p.success ? `succeeded in ${steps}` : `failed after ${steps}`;
}

export function episodeHref(x: {
  runId?: string | undefined;
  episodeId?: string | undefined;
}): string | null {
  return x.runId && x.episodeId ? `/runs/${x.runId}/episodes/${x.episodeId}` : null;
}

/** Suspicious tasks first (in their order), then the rest. */
export function tasksInOrder(tasks: AuditTask[]): AuditTask[] {
  return [...tasks.filter((t) => t.suspicious), ...tasks.filter((t) => !t.suspicious)];
}

/** The rows shown before "show all": every suspicious task, and a few sound ones. */
export function visibleTasks(tasks: AuditTask[], all: boolean, sound = 8): AuditTask[] {
  const ordered = tasksInOrder(tasks);
  if (all) return ordered;
  const bad = ordered.filter((t) => t.suspicious);
  return [...bad, ...ordered.filter((t) => !t.suspicious).slice(0, sound)];
}

/** Bridges whose verifier failed first (by name within each group): what needs a look leads. */
export function failingFirst<A extends { bridge: string; passed: boolean }>(audits: A[]): A[] {
  return [...audits].sort(
    (a, b) => Number(a.passed) - Number(b.passed) || a.bridge.localeCompare(b.bridge),
  );
}
