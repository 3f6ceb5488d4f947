// SandboxHost: one capped wasm instance (wasm.ts), shared by the contracts of one harness stack
// across episodes (a new instance costs ≈ 5 ms here, a new runtime ≈ 0.3 ms), with the hook sets
// loaded on it. Replaced after any fatal error.
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { HookSet, type HookSetOwner, type LoadOptions } from './hook-set.ts';
import { DEFAULT_LIMITS, type SandboxLimits } from './limits.ts';
import { newCappedModule } from './wasm.ts';

/** Loaded hook sets a host keeps for reuse (each is one QuickJS runtime inside the 64 MiB cap). */
const MAX_IDLE_SETS = 8;

export class SandboxHost implements HookSetOwner {
  private module: QuickJSWASMModule | undefined;
  private pending: Promise<QuickJSWASMModule> | undefined;
  private readonly live = new Set<HookSet>();
  /** Loaded sets by code, ready for the next episode or harness (oldest first). */
  private readonly idle: HookSet[] = [];
  readonly limits: SandboxLimits;

  constructor(limits: Partial<SandboxLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get usesDefaultLimits(): boolean {
    return (Object.keys(DEFAULT_LIMITS) as (keyof SandboxLimits)[]).every(
      (k) => this.limits[k] === DEFAULT_LIMITS[k],
    );
  }

  get healthy(): boolean {
    return this.module !== undefined;
  }

  async ready(): Promise<void> {
    if (this.module) return;
    this.pending ??= newCappedModule(this.limits.memoryMiB);
    this.module = await this.pending;
    this.pending = undefined;
  }

  /** Drops the wasm instance (and every runtime on it); the next ready() builds a fresh one. */
  poison(): void {
    for (const set of [...this.live, ...this.idle]) set.abandon();
    this.live.clear();
    this.idle.length = 0;
    this.module = undefined;
  }

  /**
   * Hook code ready to run: a loaded set for the same code is reused (its top-level code runs
   * again for the new episode), otherwise a new runtime is set up. Call ready() first. Throws
   * HarnessCodeError on a compile or load error.
   */
  load(code: string, options: LoadOptions): HookSet {
    if (!this.module) throw new Error('SandboxHost.load before ready()');
    const key = HookSet.keyOf(code, options);
    const index = this.idle.findIndex((set) => set.key === key);
    if (index >= 0) {
      const [set] = this.idle.splice(index, 1);
      try {
        set!.begin(options.seed ?? 0);
      } catch (e) {
        if (set!.alive) this.idle.push(set!);
        throw e;
      }
      this.live.add(set!);
      return set!;
    }
    const set = new HookSet(this, this.module, code, options);
    this.live.add(set);
    return set;
  }

  /** A set its user is done with: kept for reuse while it is healthy. */
  recycle(set: HookSet): void {
    this.live.delete(set);
    if (!set.alive || !this.module) return;
    this.idle.push(set);
    while (this.idle.length > MAX_IDLE_SETS) this.idle.shift()!.destroy();
  }

  forget(set: HookSet): void {
    this.live.delete(set);
    const i = this.idle.indexOf(set);
    if (i >= 0) this.idle.splice(i, 1);
  }

  dispose(): void {
    for (const set of [...this.live, ...this.idle]) set.destroy();
    this.live.clear();
    this.idle.length = 0;
    this.module = undefined;
  }
}
