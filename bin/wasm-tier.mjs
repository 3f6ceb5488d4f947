// V8 flags for a `harness` process, set before any WebAssembly is compiled (bin/harness.mjs).
//
// A command's wasm (PGlite's postgres, Prisma's query compiler, QuickJS) runs on V8's baseline
// compiler, Liftoff, with no tier-up to TurboFan: TurboFan recompiles every hot function of a 9 MB
// postgres on the machine's cores, which costs more CPU than the faster code gives back within a
// command's life. Measured here (Node 20, load 6–9, CPU time of the whole process, household
// rollouts on an existing data folder, default → Liftoff only): 1 episode 3.4–3.6 → 2.1–2.2 s,
// 100 episodes 7.1–8.9 → 4.9–5.5 s, 800 episodes 21.0 → 17.4 s; 200 episodes of the mug harness
// (Contract hooks in QuickJS, Chain) 13.2–15.3 → 7.7–10.9 s.
// Long-lived processes (`serve`, `worker`) keep V8's defaults: unmeasured there.

/** Commands that keep running until stopped. */
const LONG_LIVED = new Set(['serve', 'worker']);

/** The V8 flags for `harness <command>`, or undefined for V8's defaults. */
export function v8FlagsFor(command) {
  if (command === undefined || LONG_LIVED.has(command)) return undefined;
  return '--liftoff-only';
}
