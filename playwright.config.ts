import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { FAKE_OPENAI_MODES, FAKE_OPENAI_PORT, FAKE_OPENAI_URL } from './e2e/fake-openai.ts';

// Real Chromium (Debian's /usr/bin/chromium; no browser download here) against the real studio
// server, built and started with a fresh embedded database so every run starts clean.
const PORT = 3210;
const DATA_DIR = '.data-e2e';
// The OpenEnv-protocol fixture server (Python standard library) the studio attaches as bridge
// `grid` (e2e/openenv.spec.ts); it starts in well under a second beside the studio's build.
const OPENENV_PORT = 3221;
// The fake OpenAI-compatible endpoint the studio's openai:fake-model policy talks to (a scripted
// stand-in, not a model): like a vLLM started without a tool-call parser, with usage and reasoning.

// One e2e run at a time on a machine: they share the port and the build folder. A second run waits
// for the first instead of failing on a busy port. Only the runner process takes the lock (its test
// workers load this file too, with the variable set).
function holdMachineLock(dir: string): void {
  if (process.env.E2E_LOCK_HELD) return;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(`${dir}/pid`, String(process.pid));
      break;
    } catch {
      let owner = 0;
      try {
        owner = Number(readFileSync(`${dir}/pid`, 'utf8'));
        process.kill(owner, 0);
      } catch {
        if (owner) rmSync(dir, { recursive: true, force: true }); // its owner is gone
      }
      Atomics.wait(sleeper, 0, 0, 1000);
    }
  }
  process.env.E2E_LOCK_HELD = '1';
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
}
holdMachineLock('/tmp/envharness-e2e.lock');

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    ['json', { outputFile: 'reports/playwright.json' }],
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } },
    },
  ],
  webServer: [
    {
      // Starts in well under a second; only specs that launch an openai: run use it.
      command: `node server/policies/testing/fake-openai-server.mjs --mode ${FAKE_OPENAI_MODES} --port ${FAKE_OPENAI_PORT}`,
      url: `${FAKE_OPENAI_URL}/models`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: `python3 bridges/openenv/testing/openenv_fixture_server.py --port ${OPENENV_PORT}`,
      url: `http://127.0.0.1:${OPENENV_PORT}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `rm -rf ${DATA_DIR} && npx next build && npx tsx server/main.ts`,
      url: `http://127.0.0.1:${PORT}/api/trpc/bridges.list`,
      reuseExistingServer: false,
      // next build takes 30–50 s on a quiet 2-core machine and minutes under load.
      timeout: 420_000,
      stdout: 'pipe',
      stderr: 'pipe',
      // Playwright signals the whole process group (tsx runs node as a child), so nothing keeps the port.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      env: {
        DATA_DIR,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        NO_DEMO: 'true',
        // The verifier fixtures (a sound and a broken verifier) for the audit journey.
        FIXTURE_BRIDGES: 'true',
        ROLLOUT_CONCURRENCY: '2',
        NEXT_TELEMETRY_DISABLED: '1',
        OPENENV_ENVS: `grid=http://127.0.0.1:${OPENENV_PORT};tasks=e2e/fixtures/grid-tasks.json`,
        OPENAI_BASE_URL: FAKE_OPENAI_URL,
        OPENAI_MODEL: 'fake-model',
      },
    },
  ],
});
