import { describeContract } from '../core/contract-suite.vitest.ts';
import { codeRepairBridge } from './index.ts';

describeContract(codeRepairBridge, { tasks: 2, seeds: [0, 3], steps: 6 });
