// The shared ActionableEnv contract suite against the officeqa bridge.
import { describeContract } from '../core/contract-suite.vitest.ts';
import { officeqaBridge } from './index.ts';

describeContract(officeqaBridge, { tasks: 3, seeds: [0, 7], steps: 6, timeoutMs: 60_000 });
