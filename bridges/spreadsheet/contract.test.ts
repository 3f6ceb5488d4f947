import { describeContract } from '../core/contract-suite.vitest.ts';
import { spreadsheetBridge } from './index.ts';

describeContract(spreadsheetBridge, { tasks: 2, seeds: [0, 4], steps: 6 });
