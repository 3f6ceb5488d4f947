// Lint (and the verifier audit) as jobs for a worker of an IsolatedPool — the studio's pool or the
// CLI's own (pool.ts): they run hook code and whole episodes, so a hook stuck in a built-in gets
// its thread terminated by the pool's watchdog instead of hanging the caller.
import type { BridgeResolver } from '../../bridges/core/types.ts';
import type { LintResult } from '../../contracts/lint.ts';
import { type AuditPlayInput, playAudit } from '../audit/audit.ts';
import type { HarnessSpec } from '../harness/index.ts';
import { type KnownSequence, lintSpec } from './lint.ts';

export interface LintJobInput {
  spec: HarnessSpec;
  seed: number;
  taskId?: string;
  recorded: KnownSequence[];
}

export function lintHandlers(bridges: BridgeResolver) {
  return {
    lint: (raw: unknown): Promise<LintResult> => {
      const input = raw as LintJobInput;
      return lintSpec(input.spec, {
        bridges,
        seed: input.seed,
        recorded: input.recorded,
        ...(input.taskId !== undefined ? { taskId: input.taskId } : {}),
      });
    },
    /** The verifier audit's probe episodes (server/audit). */
    audit: (raw: unknown) => playAudit(raw as AuditPlayInput, bridges),
  };
}
