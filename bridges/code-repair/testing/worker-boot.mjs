// Boots a TypeScript entry inside a worker thread (tsx's register API; `--import tsx` does not
// reach workers on Node 20).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
