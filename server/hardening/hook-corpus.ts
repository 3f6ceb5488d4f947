// A seeded corpus of Contract hook programs for the sandbox hardening test: random benign programs
// (which may succeed or fail with an ordinary error) and known attacks, each of which must end as a
// harness error. Attacks that would prove an escape report it through a marker the runner checks
// (a returned 'ESCAPED' action, a host global, a file) — so an escape cannot pass silently.
import { HOSTILE_VALUE_HOOKS } from '../harness/testing/hostile-values.ts';

/**
 * benign: may return or fail; attack: must end as a harness error; builtin: an attack only the
 * pool's watchdog can stop; probe: pushes a limit the engine does not enforce (may return) and
 * must neither crash nor escape.
 */
export type HookKind = 'benign' | 'attack' | 'builtin' | 'probe';

export interface CorpusHook {
  id: number;
  kind: HookKind;
  /** Attack family (e.g. 'endless-loop') or 'random' / 'token-soup' for benign programs. */
  family: string;
  hook: 'filterAction' | 'modifyTransition' | 'filterObservation';
  code: string;
}

/** xorshift32: deterministic, so a failing hook is reproducible from its id. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

const HOOK_SIGNATURES = {
  filterAction: { params: 'action, state', primary: 'action' },
  modifyTransition: { params: 'action, result, state', primary: 'result' },
  filterObservation: { params: 'observation, state', primary: 'observation' },
} as const;

type Hook = keyof typeof HOOK_SIGNATURES;
const HOOKS = Object.keys(HOOK_SIGNATURES) as Hook[];

function wrap(hook: Hook, body: string, prefix = ''): string {
  const { params } = HOOK_SIGNATURES[hook];
  return `${prefix}export function ${hook}(${params}) {\n${body}\n}\n`;
}

/**
 * Attack bodies. `__CANARY__` is replaced with the host canary file path, `__N__` with a random
 * number (so that no two hooks are textually identical). Every body ends by throwing when the
 * attack found nothing, so a stopped attack is always an error; one that gets through returns
 * the ESCAPED marker or leaves a host-side trace.
 */
const ATTACKS: Record<string, string[]> = {
  'endless-loop': [
    'for (;;) {}',
    'while (true) { __N__; }',
    'let i = 0; do { i = (i + __N__) | 0; } while (i !== 0.5);',
    'for (let i = 0; i >= 0; i = (i + 1) % 1000) {}',
    'const f = () => { for (;;) {} }; f();',
    "'a'.replace(/a/, () => { for (;;) {} });",
    '[1, 2, 3].sort(() => { for (;;) {} });',
    'new Proxy({}, { get() { for (;;) {} } }).x;',
    "/(a+)+$/.test('a'.repeat(40) + '!');",
    'const g = function* () { for (;;) yield __N__; }; for (const _ of g()) {}',
  ],
  'memory-bomb': [
    'const a = []; for (;;) a.push(new Array(100000).fill(__N__));',
    "let s = 'x'; for (;;) s += s;",
    'const m = new Map(); for (let i = 0; ; i++) m.set(i, { i, s: String(i).repeat(50) });',
    'const a = []; for (;;) a.push(new ArrayBuffer(1 << 20));',
    'const o = {}; for (let i = 0; ; i++) o["k" + i] = [i, i, i, i];',
    'let x = [__N__]; for (;;) x = [x, x.slice(), x.concat(x)];',
    'const big = new Uint8Array(1 << 30); return { name: "ESCAPED", args: { n: big.length } };',
  ],
  'deep-recursion': [
    'const f = (n) => f(n + 1) + 1; f(0);',
    'function r(n) { return [r(n + 1)]; } r(__N__);',
    "JSON.parse('['.repeat(200000) + ']'.repeat(200000));",
    'const o = {}; let c = o; for (let i = 0; i < 1e6; i++) { c.n = {}; c = c.n; } JSON.stringify(o);',
    'const p = new Proxy({}, { get: (t, k, r) => r[k] }); p.x;',
    'const a = []; a[0] = a; String(a.flat(Infinity));',
    'function f() { return f.apply(null, arguments); } f(__N__);',
  ],
  'host-globals': [
    'return process.mainModule.require("fs").writeFileSync("__CANARY__", "x");',
    'require("fs").writeFileSync("__CANARY__", "x");',
    'return fetch("http://127.0.0.1:9/").then(() => ({ name: "ESCAPED", args: {} }));',
    'setTimeout(() => {}, 0); return { name: "ESCAPED", args: { via: "setTimeout" } };',
    'setInterval(() => {}, 1); return { name: "ESCAPED", args: { via: "setInterval" } };',
    'queueMicrotask(() => {}); return { name: "ESCAPED", args: { via: "queueMicrotask" } };',
    'Buffer.from("x"); return { name: "ESCAPED", args: { via: "Buffer" } };',
    'const w = new Worker("data:,"); return { name: "ESCAPED", args: {} };',
    'return { name: "ESCAPED", args: { env: Object.keys(process.env).length } };',
    'Deno.exit(1);',
    'return { name: "ESCAPED", args: { via: typeof __filename + __dirname } };',
    'new WebAssembly.Memory({ initial: 1 }); return { name: "ESCAPED", args: { via: "wasm" } };',
    'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return { name: "ESCAPED", args: {} };',
    'const x = new XMLHttpRequest(); return { name: "ESCAPED", args: {} };',
  ],
  'import-escape': [
    'return import("node:fs").then((fs) => fs.writeFileSync("__CANARY__", "x"));',
    'import("node:child_process"); throw new Error("import did nothing visible");',
    'return import("data:text/javascript,export default 1");',
  ],
  'constructor-escape': [
    'return globalThis.constructor.constructor("return process")().mainModule.require("fs").writeFileSync("__CANARY__", "x");',
    'return (function () { return this; }).constructor("return process")().exit(7);',
    'const F = Object.getPrototypeOf(function () {}).constructor; return F("return require")()("fs").writeFileSync("__CANARY__", "x");',
    'const AF = Object.getPrototypeOf(async function () {}).constructor; return AF("return process")();',
    'const GF = Object.getPrototypeOf(function* () {}).constructor; return GF("yield process")().next().value.exit(1);',
    '[].constructor.constructor("return this")().process.exit(1);',
    'return eval("process").exit(1);',
    'return (0, eval)("this").process.exit(1);',
    'return Reflect.construct(Function, ["return process"])().exit(1);',
    'return new Function("return this")().require("fs");',
    'const g = Function("return globalThis")(); if (g.process || g.require) return { name: "ESCAPED", args: {} }; throw new Error("no host in globalThis");',
    'return __hostState.constructor("return process")().exit(1);',
    'return __hostInfo.call.call(__hostInfo.constructor, null, "return process")().exit(1);',
  ],
  'prototype-pollution': [
    'Object.prototype.__hardeningPolluted = "yes"; if (({}).__hardeningPolluted === "yes" && typeof process !== "undefined") return { name: "ESCAPED", args: {} }; throw new Error("polluted only the sandbox");',
    'Array.prototype.__hardeningPolluted = 1; Function.prototype.__hardeningPolluted = 1; throw new Error("sandbox-only pollution");',
    'Object.defineProperty(Object.prototype, "toJSON", { get() { for (;;) {} } }); return __PRIMARY__;',
    '({}).__proto__.__hardeningPolluted = 1; globalThis.__hardeningCanary = "changed"; throw new Error("sandbox-only");',
    'Object.setPrototypeOf(Object.prototype, { __hardeningPolluted: 1 }); throw new Error("x");',
    'String.prototype.toString = () => { for (;;) {} }; return String(__PRIMARY__) + 1;',
  ],
  'boundary-tricks': [
    // Break the JSON the sandbox replies with: the host must report a hook error, not crash.
    'JSON.stringify = () => "{not json"; return __PRIMARY__;',
    'JSON.stringify = () => "\\u0001\\u0001"; return __PRIMARY__;',
    'JSON.stringify = () => "V" + "[".repeat(__N__ % 50000 + 10000); return __PRIMARY__;',
    'JSON.parse = () => { throw new Error("parse sabotaged"); }; return __PRIMARY__;',
    'Object.keys = () => { throw new Error("keys sabotaged"); }; return __PRIMARY__;',
    '__hostState({ toString() { for (;;) {} } }); throw new Error("host function survived an odd key");',
    '__hostState(Symbol("x")); __hostInfo(new Proxy({}, {})); throw new Error("host functions survived odd keys");',
    'for (let i = 0; i < 1e7; i++) __hostState("k" + i);',
    'return { get name() { for (;;) {} }, args: {} };',
    'return new Promise(() => {});',
    'return Promise.resolve({ name: "ESCAPED", args: {} });',
  ],
  throwing: [
    'throw new Error("hook says no __N__");',
    'throw { notAnError: __N__ };',
    'throw null;',
    'undefinedFunction__N__();',
    'return state.agent.holding.deeper.still;',
    'throw new RangeError("x".repeat(100000));',
  ],
};

/** Oversize replies: over the engine's reply cap (MAX_HOOK_REPLY_BYTES) they end as harness errors; they must not crash. */
const PROBES = [
  'return { name: "act", args: { command: "x".repeat(1 << 24) } };',
  'return { name: "act", args: { list: new Array(200000).fill("y") } };',
];

/** Long built-ins: the interrupt handler cannot reach them, only the pool's watchdog can. */
const BUILTIN_ATTACKS = [
  "for (;;) 'x'.repeat(1e7);",
  'const a = new Array(2e6).fill(1); for (;;) a.sort((x, y) => 0);',
  "const s = 'y'.repeat(5e6); for (;;) JSON.stringify(s);",
  "for (;;) 'abc'.repeat(3e6).split('').reverse().join('');",
];

const IDENTS = ['a', 'b', 'c', 'n', 's', 'xs', 'o'];

/** A small random program: arithmetic, strings, arrays, objects, bounded loops, branches. */
function randomBody(r: () => number, hook: Hook): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const int = (n: number) => Math.floor(r() * n);
  const lines: string[] = [
    'let a = ' +
      int(100) +
      ', b = ' +
      int(100) +
      ", c = 0, n = 0, s = '" +
      pick(['', 'go', 'x', 'key']) +
      "', xs = [" +
      int(9) +
      ', ' +
      int(9) +
      '], o = { k: ' +
      int(9) +
      ' };',
  ];
  const expr = (): string => {
    const e = [
      () =>
        `${pick(['a', 'b', 'c', 'n'])} ${pick(['+', '-', '*', '%', '|', '&', '^', '<<'])} ${int(50) + 1}`,
      () => `s.length + ${int(10)}`,
      () => `xs.length * ${int(5)}`,
      () => `Math.floor(Math.random() * ${int(100) + 1})`,
      () => `(o.k ?? ${int(5)}) + ${int(5)}`,
      () => `xs.reduce((p, q) => p + q, 0)`,
      () => `JSON.stringify(o).length`,
      () => `${pick(['a', 'b'])} > ${int(100)} ? ${int(10)} : ${int(10)}`,
    ];
    return pick(e)();
  };
  const statements = [
    () => `${pick(['a', 'b', 'c', 'n'])} = ${expr()};`,
    () => `s = s + String(${expr()}).slice(0, ${int(4) + 1});`,
    () => `xs.push(${expr()}); if (xs.length > 20) xs = xs.slice(-5);`,
    () => `o = { ...o, ['k' + (${expr()} % 3)]: ${expr()} };`,
    () => `for (let i = 0; i < ${int(50)}; i++) { c = (c + i * ${int(7)}) % 1000; }`,
    () => `if (${expr()} > ${int(60)}) { s = s.toUpperCase(); } else { s = s.toLowerCase(); }`,
    () => `xs = xs.map((v) => v * ${int(3)}).filter((v) => v % ${int(4) + 1} !== 1);`,
    () => `n = Object.keys(o).length + xs.indexOf(${int(9)});`,
    () => `try { n = ${pick(IDENTS)}.${pick(['length', 'k', 'x'])} ?? 0; } catch (e) { n = -1; }`,
    () => `const t${int(1000)} = [${expr()}, s].join('-');`,
    // Occasionally a genuine bug: calling a non-function, reading through undefined.
    () => (r() < 0.15 ? `o.missing.deep = ${expr()};` : `o.k = ${expr()};`),
    () => (r() < 0.1 ? `${pick(IDENTS)}();` : `c = c + 1;`),
    () => `if (state && typeof state === 'object') { n = n + ${int(3)}; }`,
  ];
  const count = 2 + int(8);
  for (let i = 0; i < count; i++) lines.push(pick(statements)());
  const { primary } = HOOK_SIGNATURES[hook];
  const returns: Record<Hook, string[]> = {
    filterAction: [
      'return action;',
      'return undefined;',
      "return { blocked: 'blocked by rule ' + s + c };",
      "return { name: action.name, args: { ...action.args, command: String(action.args.command ?? '') + (s ? '' : '') } };",
      'return { name: "act", args: { command: "look" } };',
      'return 42;',
    ],
    modifyTransition: [
      'return result;',
      "return { ...result, observation: (typeof result.observation === 'string' ? result.observation : result.observation.text) + ' [' + s + ']' };",
      'return { ...result, reward: 1e9 };',
      'return { observation: { text: String(c) }, terminated: c > 500 };',
      'return "not a transition";',
    ],
    filterObservation: [
      'return observation;',
      "return observation.text + ' ' + s;",
      'return { text: String(xs.length), data: { n } };',
      'return undefined;',
      'return [observation];',
    ],
  };
  lines.push(pick(returns[hook]).replaceAll('__PRIMARY__', primary));
  return lines.map((l) => `  ${l}`).join('\n');
}

const SOUP = [
  'function',
  '(',
  ')',
  '{',
  '}',
  '=>',
  'return',
  'let',
  'x',
  '=',
  ';',
  '1',
  '"',
  '`',
  '${',
  'class',
  'new',
  'yield',
  'await',
  '[',
  ']',
  '/*',
  '//',
  '\n',
  'export',
  'import',
  '...',
  '?.',
  '#x',
];

/** Random tokens: almost always a compile error, occasionally something that loads. */
function tokenSoup(r: () => number): string {
  const n = 5 + Math.floor(r() * 40);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(SOUP[Math.floor(r() * SOUP.length)] as string);
  return out.join(' ');
}

export interface CorpusOptions {
  seed: number;
  size: number;
  canaryPath: string;
  /** How many long-built-in attacks to include (run through the worker pool). */
  builtins?: number;
  /** How many oversize-reply probes to include. */
  probes?: number;
}

/**
 * Deterministic corpus: roughly half random benign programs (a tenth of those token soup), half
 * attacks cycling through every attack body so each appears many times with different numbers.
 */
export function generateCorpus(o: CorpusOptions): CorpusHook[] {
  const r = rng(o.seed);
  const out: CorpusHook[] = [];
  const families = Object.entries(ATTACKS).flatMap(([family, bodies]) =>
    bodies.map((body) => ({ family, body })),
  );
  const builtins = o.builtins ?? 8;
  const probes = o.probes ?? 20;
  // Values that fight being read (a looping Proxy thrown, looping getters / toString /
  // Symbol.toPrimitive): each once, as written in harness/testing/hostile-values.ts.
  const hostile = HOSTILE_VALUE_HOOKS.map(
    (h, i): CorpusHook => ({
      id: 3_000_000 + i,
      kind: h.builtin ? 'builtin' : 'attack',
      family: 'hostile-value',
      hook: h.hook,
      code: h.code,
    }),
  );
  let attackIndex = 0;
  for (let id = 0; out.length < o.size - builtins - probes - hostile.length; id++) {
    const hook = HOOKS[Math.floor(r() * HOOKS.length)] as Hook;
    if (r() < 0.5) {
      if (r() < 0.1) {
        out.push({ id, kind: 'benign', family: 'token-soup', hook, code: tokenSoup(r) });
      } else {
        out.push({
          id,
          kind: 'benign',
          family: 'random',
          hook,
          code: wrap(hook, randomBody(r, hook)),
        });
      }
      continue;
    }
    const attack = families[attackIndex % families.length]!;
    attackIndex += 1;
    const body = attack.body
      .replaceAll('__CANARY__', o.canaryPath)
      .replaceAll('__N__', String(Math.floor(r() * 1e6)))
      .replaceAll('__PRIMARY__', HOOK_SIGNATURES[hook].primary);
    // Half the attacks run at load time (top level), the rest inside the hook.
    const atLoad = r() < 0.25 && !body.includes('return');
    const code = atLoad
      ? wrap(hook, `  return ${HOOK_SIGNATURES[hook].primary};`, `${body}\n`)
      : wrap(hook, `  ${body}`);
    out.push({ id, kind: 'attack', family: attack.family, hook, code });
  }
  out.push(...hostile);
  for (let i = 0; i < probes; i++) {
    const hook = HOOKS[i % HOOKS.length] as Hook;
    const code = wrap(hook, `  ${PROBES[i % PROBES.length]}`);
    out.push({ id: 2_000_000 + i, kind: 'probe', family: 'oversize-reply', hook, code });
  }
  for (let i = 0; i < builtins; i++) {
    const hook = HOOKS[i % HOOKS.length] as Hook;
    out.push({
      id: 1_000_000 + i,
      kind: 'builtin',
      family: 'long-builtin',
      hook,
      code: wrap(hook, `  ${BUILTIN_ATTACKS[i % BUILTIN_ATTACKS.length]}`),
    });
  }
  return out;
}
