// bin/wasm-tier.mjs: which `harness` processes run their WebAssembly without TurboFan.
import { describe, expect, it } from 'vitest';
import { v8FlagsFor } from '../../bin/wasm-tier.mjs';

describe('v8FlagsFor', () => {
  it('keeps short commands on Liftoff, and V8 defaults for the long-lived ones', () => {
    expect(v8FlagsFor('rollout')).toBe('--liftoff-only');
    expect(v8FlagsFor('runs')).toBe('--liftoff-only');
    expect(v8FlagsFor('serve')).toBeUndefined();
    expect(v8FlagsFor('worker')).toBeUndefined();
    expect(v8FlagsFor(undefined)).toBeUndefined();
  });
});
