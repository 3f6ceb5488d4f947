// For code-repair.test.ts: a worker thread opens an episode and is terminated mid-episode (as the
// IsolatedPool watchdog does); the main thread then exits normally.
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

if (isMainThread) {
  await import('../index.ts'); // the main thread loads the bridge, as the rollout service does
  const worker = new Worker(new URL('./worker-boot.mjs', import.meta.url), {
    workerData: { entry: import.meta.url, taskId: process.argv[2] },
  });
  worker.on('message', async (dir: string) => {
    console.log(`CHECKOUT ${dir}`);
    await worker.terminate();
  });
} else {
  const { workerData } = await import('node:worker_threads');
  const { readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { CHECKOUT_ROOT } = await import('../cleanup.ts');
  const { codeRepairBridge } = await import('../index.ts');
  const env = await codeRepairBridge.create();
  await env.reset({ taskId: (workerData as { taskId: string }).taskId, seed: 0 });
  const mine = readdirSync(CHECKOUT_ROOT).filter((n) => n.startsWith(`${process.pid}-`));
  parentPort!.postMessage(join(CHECKOUT_ROOT, mine[0]!));
  setInterval(() => {}, 1000);
}
