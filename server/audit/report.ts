// The audit report from its played probes (audit.ts), the disagreements found in recorded episodes
// and where the probe episodes were stored: per task whether it is suspicious and why, totals, and
// the bridge's verdict (it passes when no task is suspicious).
import {
  type AuditProbe,
  type AuditReport,
  type AuditTask,
  auditTotals,
  type Disagreement,
  suspicionsOf,
} from '../../contracts/audit.ts';
import type { HarnessSpec } from '../../contracts/spec.ts';
import type { PlayedTask } from './audit.ts';

export interface ReportInput {
  bridge: string;
  spec?: HarnessSpec;
  split: string | null;
  sample: number | null;
  seed: number;
  played: PlayedTask[];
  /** Disagreements among the recorded episodes of each task (the store's reading). */
  recorded?: Record<string, Disagreement[]>;
  /** Where each probe episode was stored, by `${probe}:${taskId}`. */
  stored?: Map<string, { runId: string; episodeId: string }>;
  runs?: AuditReport['runs'];
  id?: string;
  createdAt?: string;
  ms: number;
}

export function probeKey(probe: AuditProbe, taskId: string): string {
  return `${probe}:${taskId}`;
}

export function auditReport(input: ReportInput): AuditReport {
  const tasks: AuditTask[] = input.played.map((p) => {
    const at = (probe: AuditProbe) => input.stored?.get(probeKey(probe, p.taskId));
    const withEpisode = (probe: AuditProbe) => {
      const where = at(probe);
      return where ? { ...p[probe], ...where } : p[probe];
    };
    const probeDisagreements = p.disagreements.map((d) => {
      const where = d.probe ? at(d.probe) : undefined;
      return where ? { ...d, ...where } : d;
    });
    const disagreements = [...probeDisagreements, ...(input.recorded?.[p.taskId] ?? [])];
    const task = {
      taskId: p.taskId,
      type: p.type,
      seed: p.seed,
      gold: withEpisode('gold'),
      empty: withEpisode('empty'),
      perturbed: withEpisode('perturbed'),
      disagreements,
    };
    const reasons = suspicionsOf(task);
    return { ...task, suspicious: reasons.length > 0, reasons };
  });
  const suspicious = tasks.filter((t) => t.suspicious).map((t) => t.taskId);
  return {
    ...(input.id ? { id: input.id } : {}),
    bridge: input.bridge,
    ...(input.spec ? { spec: input.spec } : {}),
    split: input.split,
    sample: input.sample,
    seed: input.seed,
    tasks,
    totals: auditTotals(tasks),
    suspicious,
    passed: suspicious.length === 0,
    runs: input.runs ?? {},
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    ms: Math.round(input.ms),
  };
}
