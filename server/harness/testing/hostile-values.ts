// Hooks whose thrown or returned value fights being read: a Proxy whose traps loop, getters on
// `message` / `name` / `stack` that loop, looping `toString`, `valueOf`, `Symbol.toPrimitive` or
// `toJSON`, thrown functions. Reading such a value is running hook code, so it must happen under
// the hook's deadline and watchdog; each must end as a harness error within 2 s on every surface
// (sandbox, CLI, runs, try-it play, test on a trajectory) and is part of the hardening corpus.

export interface HostileHook {
  name: string;
  hook: 'filterAction' | 'modifyTransition' | 'filterObservation';
  code: string;
  /** Loops inside a long built-in: only the pool's watchdog (a thread kill) can stop it. */
  builtin?: boolean;
}

const LOOP = 'for (;;) {}';

const sig = {
  filterAction: '(action, state)',
  modifyTransition: '(action, result, state)',
  filterObservation: '(observation, state)',
} as const;

const hook = (
  name: string,
  h: HostileHook['hook'],
  body: string,
  builtin = false,
): HostileHook => ({
  name,
  hook: h,
  code: `export function ${h}${sig[h]} {\n  ${body}\n}\n`,
  ...(builtin ? { builtin } : {}),
});

export const HOSTILE_VALUE_HOOKS: HostileHook[] = [
  // The repro, exactly.
  {
    name: 'throws a Proxy whose get and getPrototypeOf loop',
    hook: 'filterObservation',
    code: 'export function filterObservation(o){ throw new Proxy({}, {get(){while(true){}}, getPrototypeOf(){while(true){}}}); }',
  },
  hook(
    'throws an object whose message getter loops',
    'filterAction',
    `throw { get message() { ${LOOP} } };`,
  ),
  hook(
    'throws an object whose name getter loops',
    'filterAction',
    `throw { message: 'x', get name() { ${LOOP} } };`,
  ),
  hook(
    'throws an Error whose stack getter loops',
    'filterObservation',
    `const e = new Error('x'); Object.defineProperty(e, 'stack', { get() { ${LOOP} } }); throw e;`,
  ),
  hook(
    'throws an object whose toString loops',
    'filterAction',
    `throw { toString() { ${LOOP} } };`,
  ),
  hook('throws an object whose valueOf loops', 'filterAction', `throw { valueOf() { ${LOOP} } };`),
  hook(
    'throws an object whose Symbol.toPrimitive loops',
    'filterObservation',
    `throw { [Symbol.toPrimitive]() { ${LOOP} } };`,
  ),
  hook(
    'throws an object whose toJSON loops',
    'modifyTransition',
    `throw { toJSON() { ${LOOP} } };`,
  ),
  hook(
    'throws a Proxy whose ownKeys loops',
    'modifyTransition',
    `throw new Proxy({}, { get: () => undefined, ownKeys() { ${LOOP} } });`,
  ),
  hook(
    'throws a function whose message getter loops',
    'filterAction',
    `const f = () => 0; Object.defineProperty(f, 'message', { get() { ${LOOP} } }); throw f;`,
  ),
  hook('throws a plain function', 'filterAction', 'throw function nope() {};'),
  hook(
    'returns an object whose getter loops',
    'filterObservation',
    `return { get text() { ${LOOP} } };`,
  ),
  hook(
    'returns a Proxy whose get loops',
    'filterAction',
    `return new Proxy({}, { get() { ${LOOP} } });`,
  ),
  hook(
    'returns an object whose toJSON loops',
    'filterAction',
    `return { name: 'act', args: { toJSON() { ${LOOP} } } };`,
  ),
  {
    name: 'throws a looping Proxy from its top-level code',
    hook: 'filterAction',
    code: `throw new Proxy({}, { get() { ${LOOP} } });\nexport function filterAction(a) { return a; }\n`,
  },
  hook(
    'throws an object whose message getter loops in a long built-in',
    'filterAction',
    "throw { get message() { for (;;) 'x'.repeat(1e7); } };",
    true,
  ),
];
