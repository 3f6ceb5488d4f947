import { describeContract } from '../core/contract-suite.vitest.ts';
import { toy24Bridge } from './index.ts';

describeContract(toy24Bridge, { tasks: 3, seeds: [0, 3], steps: 6 });
