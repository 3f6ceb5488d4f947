// Harness versions served from the studio process ("Serve to a trainer" on a harness version page):
// one OpenEnv server per version, its sessions in worker threads, optionally recorded as runs.
import '#server-only';
import type { ServedEndpoint, ServeStartInput } from '../../contracts/serving.ts';
import { ServeStartInputSchema } from '../../contracts/serving.ts';
import type { Db } from '../db/index.ts';
import { ConflictError } from '../errors.ts';
import { getHarnessVersion } from '../harnesses/library.ts';
import type { RunEvents } from '../rollouts/events.ts';
import { WorkerEngine } from './engine.ts';
import { RunRecorder } from './record.ts';
import { type OpenEnvServerHandle, startOpenEnvServer } from './server.ts';

interface Served {
  handle: OpenEnvServerHandle;
  engine: WorkerEngine;
  recorder: RunRecorder | undefined;
  startedAt: Date;
}

export class StudioServing {
  private readonly served = new Map<string, Served>();

  constructor(private readonly deps: { db: Db; events: RunEvents; host: string }) {}

  private view(id: string, s: Served): ServedEndpoint {
    const stats = s.handle.stats();
    return {
      harnessVersionId: id,
      url: s.handle.url,
      sessions: stats.sessions,
      maxSessions: stats.maxSessions,
      episodes: stats.episodes,
      steps: stats.steps,
      record: s.recorder !== undefined,
      runIds: s.recorder?.runIds() ?? [],
      startedAt: s.startedAt.toISOString(),
    };
  }

  get(harnessVersionId: string): ServedEndpoint | null {
    const s = this.served.get(harnessVersionId);
    return s ? this.view(harnessVersionId, s) : null;
  }

  list(): ServedEndpoint[] {
    return [...this.served].map(([id, s]) => this.view(id, s));
  }

  async start(raw: ServeStartInput, o: { createdBy?: string; projectId?: string } = {}) {
    const input = ServeStartInputSchema.parse(raw);
    if (this.served.has(input.harnessVersionId))
      throw new ConflictError('this version is already served from the studio; stop it first');
    const version = await getHarnessVersion(this.deps.db, input.harnessVersionId);
    const engine = new WorkerEngine({ threads: 2 });
    const recorder = input.record
      ? new RunRecorder(this.deps.db, this.deps.events, {
          spec: version.spec,
          maxSteps: 50,
          harnessVersionId: version.id,
          ...(o.createdBy ? { createdBy: o.createdBy } : {}),
          ...(o.projectId ? { projectId: o.projectId } : {}),
        })
      : undefined;
    try {
      const handle = await startOpenEnvServer({
        spec: version.spec,
        label: `harness ${version.harness.name} v${version.version}`,
        engine,
        host: this.deps.host,
        port: input.port,
        maxSessions: input.maxSessions,
        ...(recorder ? { recorder } : {}),
      });
      const served = { handle, engine, recorder, startedAt: new Date() };
      this.served.set(input.harnessVersionId, served);
      return this.view(input.harnessVersionId, served);
    } catch (e) {
      await engine.shutdown();
      throw e;
    }
  }

  async stop(harnessVersionId: string): Promise<{ stopped: boolean }> {
    const s = this.served.get(harnessVersionId);
    if (!s) return { stopped: false };
    this.served.delete(harnessVersionId);
    await s.handle.close();
    await s.engine.shutdown();
    return { stopped: true };
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.served.keys()]) await this.stop(id);
  }
}
