// Packages only some paths need, loaded on their first use instead of when the server modules load:
// a CLI rollout on the embedded queue never talks to Redis nor serves WebSockets, and bullmq +
// ioredis + ws cost it ~250 ms of start-up CPU (issue 18). `require` rather than `import()` keeps
// their callers synchronous. ioredis and ws give `import` their CommonJS module anyway (ws's ESM
// entry re-exports it); bullmq is taken in its CommonJS build (its `main`) by every server module
// through here, so its classes (Worker, WaitingError) are one set.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const bullmqPackage = (): typeof import('bullmq') => require('bullmq');
export const ioredisPackage = (): typeof import('ioredis') => require('ioredis');
export const wsPackage = (): typeof import('ws') => require('ws');
