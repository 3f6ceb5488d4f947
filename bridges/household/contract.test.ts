// The shared ActionableEnv contract suite, run against the household bridge.
import { describeContract } from '../core/contract-suite.vitest.ts';
import { householdBridge } from './index.ts';

describeContract(householdBridge, { tasks: 6, seeds: [0, 7], steps: 16 });
