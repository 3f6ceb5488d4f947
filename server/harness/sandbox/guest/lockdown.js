// Guest code, run once after the user's code is defined: every built-in and the global object are
// frozen, so an episode cannot leave anything behind for the next one (nor change JSON, Math.random
// or a prototype under the engine). Writing them afterwards is a TypeError at the user's line.
(() => {
  const seen = new Set();
  const harden = (o) => {
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || seen.has(o)) return;
    seen.add(o);
    Object.freeze(o);
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (!d) continue;
      if ('value' in d) harden(d.value);
      else {
        harden(d.get);
        harden(d.set);
      }
    }
    harden(Object.getPrototypeOf(o));
  };
  harden(globalThis);
})();
