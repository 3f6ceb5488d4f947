// Live co-editing of harness drafts, and "follow me". A draft is a HarnessDraft row (the graph after
// its last edit, `seq`) and its HarnessDraftOp rows (every edit, in the order this service gave
// them). Submitting an edit takes the draft's row lock (seq + 1), applies the edit to the stored
// graph (contracts/draft.ts applyDraftOp, the same function every client runs) and stores both in
// one transaction, so the order is total even with several studio processes on one PostgreSQL.
// Subscribers are woken in this process at once and read by cursor from the table (a 1 s poll
// covers edits made by another process). Presence (who is in the draft, their selection) and the
// presenters people follow are kept in memory: they are live state, not history.
import '#server-only';
import { EventEmitter, on } from 'node:events';
import {
  applyDraftOp,
  type DraftGraph,
  DraftGraphSchema,
  type DraftOp,
  DraftOpSchema,
  type FollowState,
  type OrderedDraftOp,
  type Presence,
} from '../../contracts/draft.ts';
import type { Db } from '../db/index.ts';
import { parseColumn } from '../db/json.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';

/** A person gone quiet this long has left the draft (clients beat every few seconds). */
const PRESENCE_TTL_MS = 15_000;
const POLL_MS = 1000;
const MAX_OPS_PER_SUBMIT = 200;

export type DraftEvent =
  | { type: 'ops'; ops: OrderedDraftOp[] }
  | { type: 'presence'; people: (Presence & { at: number })[] };

export interface DraftView {
  id: string;
  harnessId: string | null;
  graph: DraftGraph;
  seq: number;
  createdBy: string;
  updatedAt: Date;
}

export class Drafts {
  private readonly bus = new EventEmitter();
  private readonly presence = new Map<string, Map<string, Presence & { at: number }>>();
  private readonly presenters = new Map<
    string,
    { state: FollowState; scope: string; at: number }
  >();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.bus.setMaxListeners(0);
  }

  async create(o: {
    graph: DraftGraph;
    harnessId?: string | null | undefined;
    projectId: string | null;
    by: string;
  }): Promise<DraftView> {
    const row = await this.db.harnessDraft.create({
      data: {
        graph: o.graph,
        harnessId: o.harnessId ?? null,
        projectId: o.projectId,
        createdBy: o.by,
      },
    });
    return this.view(row);
  }

  private view(row: {
    id: string;
    harnessId: string | null;
    graph: unknown;
    seq: number;
    createdBy: string;
    updatedAt: Date;
  }): DraftView {
    return {
      id: row.id,
      harnessId: row.harnessId,
      graph: parseColumn(DraftGraphSchema, row.graph, `HarnessDraft ${row.id}`),
      seq: row.seq,
      createdBy: row.createdBy,
      updatedAt: row.updatedAt,
    };
  }

  /** The draft, when it belongs to the caller's project (another project's is "not found"). */
  async get(id: string, projectId: string | null): Promise<DraftView> {
    const row = await this.db.harnessDraft.findUnique({ where: { id } });
    if (!row || row.projectId !== projectId) throw new NotFoundError(`draft '${id}' not found`);
    return this.view(row);
  }

  /** Open drafts of a harness (or of new harnesses: null), newest first. */
  async list(o: { harnessId: string | null; projectId: string | null }) {
    const rows = await this.db.harnessDraft.findMany({
      where: { harnessId: o.harnessId, projectId: o.projectId },
      orderBy: { updatedAt: 'desc' },
      take: 20,
      select: { id: true, seq: true, createdBy: true, updatedAt: true },
    });
    return rows.map((r) => ({ ...r, people: this.people(r.id).map((p) => p.name) }));
  }

  async opsAfter(id: string, after: number): Promise<OrderedDraftOp[]> {
    const rows = await this.db.harnessDraftOp.findMany({
      where: { draftId: id, seq: { gt: after } },
      orderBy: { seq: 'asc' },
      take: 1000,
    });
    return rows.map((r) => ({
      seq: r.seq,
      clientId: r.clientId,
      clientSeq: r.clientSeq,
      actor: r.actor,
      op: parseColumn(DraftOpSchema, r.op, `HarnessDraftOp ${r.draftId}/${r.seq}`),
    }));
  }

  /**
   * Orders a client's edits after every edit already stored, applies them to the stored graph and
   * stores them (one transaction). `clientSeq` numbers the first; the rest follow it.
   */
  async submit(o: {
    id: string;
    projectId: string | null;
    clientId: string;
    clientSeq: number;
    actor: string;
    ops: DraftOp[];
  }): Promise<{ seq: number }> {
    if (o.ops.length === 0 || o.ops.length > MAX_OPS_PER_SUBMIT) {
      throw new InvalidInputError(`send 1 to ${MAX_OPS_PER_SUBMIT} edits at a time`);
    }
    // One submission per draft at a time in this process: the cached head is then current, and an
    // edit costs one write (no read). Another process writing the same draft is caught by the
    // compare-and-set on seq, and this process re-reads and tries again.
    const previous = this.queues.get(o.id) ?? Promise.resolve();
    const mine = previous.then(() => this.order(o));
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(o.id, tail);
    void tail.then(() => {
      if (this.queues.get(o.id) === tail) this.queues.delete(o.id);
    });
    return mine;
  }

  private readonly queues = new Map<string, Promise<unknown>>();
  /** The last stored state of each draft this process wrote or read. */
  private readonly heads = new Map<
    string,
    { seq: number; graph: DraftGraph; projectId: string | null }
  >();

  private async head(id: string, fresh = false) {
    const cached = fresh ? undefined : this.heads.get(id);
    if (cached) return cached;
    const row = await this.db.harnessDraft.findUnique({ where: { id } });
    if (!row) throw new NotFoundError(`draft '${id}' not found`);
    const head = {
      seq: row.seq,
      graph: parseColumn(DraftGraphSchema, row.graph, `HarnessDraft ${row.id}`),
      projectId: row.projectId,
    };
    this.heads.set(id, head);
    return head;
  }

  private async order(o: Parameters<Drafts['submit']>[0]): Promise<{ seq: number }> {
    for (let attempt = 0; ; attempt++) {
      const head = await this.head(o.id, attempt > 0);
      if (head.projectId !== o.projectId) throw new NotFoundError(`draft '${o.id}' not found`);
      let graph = head.graph;
      for (const op of o.ops) graph = applyDraftOp(graph, op);
      const first = head.seq + 1;
      const seq = head.seq + o.ops.length;
      const stored = await this.db.$transaction(async (tx) => {
        const moved = await tx.harnessDraft.updateMany({
          where: { id: o.id, seq: head.seq },
          data: { seq, graph },
        });
        if (moved.count !== 1) return false;
        await tx.harnessDraftOp.createMany({
          data: o.ops.map((op, i) => ({
            draftId: o.id,
            seq: first + i,
            clientId: o.clientId,
            clientSeq: o.clientSeq + i,
            actor: o.actor,
            op,
          })),
        });
        return true;
      });
      if (!stored) {
        if (attempt >= 20) throw new InvalidInputError('the draft is too busy: try again');
        continue;
      }
      this.heads.set(o.id, { seq, graph, projectId: head.projectId });
      // Watchers in this process get the edits at once, without reading them back.
      const ordered: OrderedDraftOp[] = o.ops.map((op, i) => ({
        seq: first + i,
        clientId: o.clientId,
        clientSeq: o.clientSeq + i,
        actor: o.actor,
        op,
      }));
      this.bus.emit(`ops:${o.id}`, ordered);
      return { seq };
    }
  }

  private people(id: string): (Presence & { at: number })[] {
    const inDraft = this.presence.get(id);
    if (!inDraft) return [];
    const cutoff = this.now() - PRESENCE_TTL_MS;
    for (const [k, p] of inDraft) if (p.at < cutoff) inDraft.delete(k);
    return [...inDraft.values()].sort((a, b) => a.clientId.localeCompare(b.clientId));
  }

  /** A person's heartbeat in a draft: their name, colour and selection (`leave` removes them). */
  async setPresence(id: string, projectId: string | null, p: Presence, leave = false) {
    await this.get(id, projectId);
    let inDraft = this.presence.get(id);
    if (!inDraft) {
      inDraft = new Map();
      this.presence.set(id, inDraft);
    }
    if (leave) inDraft.delete(p.clientId);
    else inDraft.set(p.clientId, { ...p, at: this.now() });
    this.bus.emit(`presence:${id}`);
  }

  /**
   * The draft's edits after `after`, then every new edit and every change of who is there, until
   * the signal aborts. The first event is always the current presence.
   */
  async *watch(id: string, after: number, signal?: AbortSignal): AsyncGenerator<DraftEvent> {
    let cursor = after;
    let presenceDirty = true;
    // Edits handed over by submit() in this process, in order; anything else is read by cursor.
    const handed: OrderedDraftOp[] = [];
    let wake: (() => void) | undefined;
    const onOps = (ops?: OrderedDraftOp[]) => {
      if (ops) handed.push(...ops);
      wake?.();
    };
    const onPresence = () => {
      presenceDirty = true;
      wake?.();
    };
    const onAbort = () => wake?.();
    this.bus.on(`ops:${id}`, onOps);
    this.bus.on(`presence:${id}`, onPresence);
    signal?.addEventListener('abort', onAbort);
    try {
      while (!signal?.aborted) {
        let ops: OrderedDraftOp[];
        if (handed.length > 0 && handed[0]!.seq === cursor + 1) {
          ops = handed.splice(0, handed.length).filter((o) => o.seq > cursor);
        } else {
          handed.splice(0, handed.length);
          ops = await this.opsAfter(id, cursor);
        }
        if (ops.length > 0) {
          cursor = ops.at(-1)!.seq;
          yield { type: 'ops', ops };
          continue;
        }
        if (presenceDirty) {
          presenceDirty = false;
          yield { type: 'presence', people: this.people(id) };
          continue;
        }
        if (handed.length > 0) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, POLL_MS);
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
        });
      }
    } finally {
      this.bus.off(`ops:${id}`, onOps);
      this.bus.off(`presence:${id}`, onPresence);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  // ───────────── follow me ─────────────

  /** A presenter's page and viewport, for everyone in the scope (a project, or the local studio). */
  present(scope: string, state: FollowState): void {
    if (state.active) this.presenters.set(state.clientId, { state, scope, at: this.now() });
    else this.presenters.delete(state.clientId);
    this.bus.emit(`follow:${scope}`);
  }

  /** The scope's active presenters (a presenter silent for 15 s has stopped). */
  presentersIn(scope: string): FollowState[] {
    const cutoff = this.now() - PRESENCE_TTL_MS;
    const out: FollowState[] = [];
    for (const [id, p] of this.presenters) {
      if (p.at < cutoff) this.presenters.delete(id);
      else if (p.scope === scope) out.push(p.state);
    }
    return out.sort((a, b) => a.clientId.localeCompare(b.clientId));
  }

  /** Every change of the scope's presenters, starting with the current ones. */
  async *watchPresenters(scope: string, signal?: AbortSignal): AsyncGenerator<FollowState[]> {
    let last = '';
    const queue = on(this.bus, `follow:${scope}`, signal ? { signal } : {});
    const first = this.presentersIn(scope);
    last = JSON.stringify(first);
    yield first;
    try {
      for await (const _ of queue) {
        const now = this.presentersIn(scope);
        const key = JSON.stringify(now);
        if (key === last) continue;
        last = key;
        yield now;
      }
    } catch (e) {
      if (!signal?.aborted) throw e;
    }
  }
}
