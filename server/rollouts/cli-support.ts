// Shared by the rollout CLI commands: releasing every resource a command opened (database, Redis,
// worker pool) so that the process exits by itself, and the one-line progress bar.
import { closeDb } from '../db/index.ts';
import { closeEpisodeQueue } from './bullmq.ts';
import { closeEventBus } from './events.ts';
import { closeRollouts } from './service.ts';

export async function closeRolloutResources(): Promise<void> {
  await closeRollouts();
  await Promise.all([closeEpisodeQueue(), closeEventBus()]);
  await closeDb();
}

export function progressLine(
  done: number,
  total: number,
  counts: { ok: number; fail: number; err: number },
): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const bar = `${'#'.repeat(filled)}${'.'.repeat(width - filled)}`;
  return `\r[${bar}] ${done}/${total}  success ${counts.ok}  failure ${counts.fail}  error ${counts.err}`;
}
