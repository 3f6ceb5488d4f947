// The ActionableEnv contract every bridge must honour (DESIGN.md "Core contract"), as a reusable suite:
// runContractSuite(bridge) for `harness check`, describeContract(bridge) (contract-suite.vitest.ts)
// for a bridge's own tests. Action sequences are generated deterministically from the bridge's
// admissible commands and tool schemas, so a failure reproduces.
import { CAPABILITY_CHECKS } from './contract/checks-capabilities.ts';
import { INVALID_AND_CLOSE_CHECKS } from './contract/checks-invalid.ts';
import { RUN_CHECKS } from './contract/checks-runs.ts';
import { type ContractCheck, ContractContext } from './contract/context.ts';
import {
  type ContractOptions,
  type ContractResult,
  ContractViolation,
  errorText,
  withTimeout,
} from './contract/support.ts';
import type { Bridge } from './types.ts';

export { type ContractCheck, ContractContext } from './contract/context.ts';
export { plainJsonProblem } from './contract/plain-json.ts';
export {
  type ContractOptions,
  type ContractResult,
  ContractViolation,
} from './contract/support.ts';

export const CONTRACT_CHECKS: ContractCheck[] = [
  ...RUN_CHECKS,
  ...INVALID_AND_CLOSE_CHECKS,
  ...CAPABILITY_CHECKS,
];

export async function runCheck(
  check: ContractCheck,
  ctx: ContractContext,
): Promise<ContractResult> {
  try {
    await withTimeout(check.run(ctx), ctx.timeoutMs, check.name);
    return { name: check.name, ok: true };
  } catch (error) {
    const detail =
      error instanceof ContractViolation ? error.message : `unexpected error: ${errorText(error)}`;
    return { name: check.name, ok: false, detail };
  }
}

export async function runContractSuite(
  bridge: Bridge,
  opts?: ContractOptions,
): Promise<ContractResult[]> {
  const ctx = new ContractContext(bridge, opts);
  const results: ContractResult[] = [];
  for (const check of CONTRACT_CHECKS) results.push(await runCheck(check, ctx));
  return results;
}
