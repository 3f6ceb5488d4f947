// One audit row, written with the client or inside the transaction of the action it records, so an
// action and its audit row are stored together or not at all (decisions: server/harnesses).
import type { Prisma } from '../db/generated/client.ts';
import type { Db } from '../db/index.ts';

export interface AuditEntry {
  actor: string;
  action: string;
  target?: string | null;
  projectId?: string | null;
  details: Record<string, unknown>;
}

export async function writeAudit(db: Db | Prisma.TransactionClient, o: AuditEntry): Promise<void> {
  await db.auditLog.create({
    data: {
      actor: o.actor,
      action: o.action,
      target: o.target ?? null,
      projectId: o.projectId ?? null,
      details: JSON.parse(JSON.stringify(o.details)),
    },
  });
}
