// For code-repair.test.ts: opens an episode, then dies of an uncaught exception mid-episode.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKOUT_ROOT } from '../cleanup.ts';
import { codeRepairBridge } from '../index.ts';

const env = await codeRepairBridge.create();
await env.reset({ taskId: process.argv[2]!, seed: 0 });
const mine = readdirSync(CHECKOUT_ROOT).filter((n) => n.startsWith(`${process.pid}-`));
console.log(`PID ${process.pid}`);
console.log(`CHECKOUT ${join(CHECKOUT_ROOT, mine[0]!)}`);
setTimeout(() => {
  throw new Error('simulated crash');
}, 10);
