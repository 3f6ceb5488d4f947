// Runs the contract suite as one Vitest test per check: `describeContract(myBridge)` in a bridge's test file.
import { describe, expect, it } from 'vitest';
import {
  CONTRACT_CHECKS,
  ContractContext,
  type ContractOptions,
  runCheck,
} from './contract-suite.ts';
import type { Bridge } from './types.ts';

export function describeContract(bridge: Bridge, opts?: ContractOptions): void {
  describe(`ActionableEnv contract: ${bridge.name}`, () => {
    // One context per bridge: generated action sequences are shared by the checks that replay them.
    const ctx = new ContractContext(bridge, opts);
    for (const check of CONTRACT_CHECKS) {
      it(check.name, async () => {
        const result = await runCheck(check, ctx);
        expect(result.ok, result.detail).toBe(true);
      });
    }
  });
}
