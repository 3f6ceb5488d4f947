// Plain-JS boot file for worker threads: `--import tsx` in a Worker's execArgv does not work on
// Node 20, registering tsx's loader here does (see the team brief).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
