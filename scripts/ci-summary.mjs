// Reads the JSON reports that `npm test` leaves in test-results/ and prints one line:
// "N passed, N failed". A stage that left no report (it never ran) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const exitStatus = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
const notes = [];

function read(path) {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
}

const vitest = read('reports/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests + (vitest.numRuntimeErrorTestSuites ?? 0);
  notes.push(`unit ${vitest.numPassedTests}/${vitest.numTotalTests}`);
} else {
  failed += 1;
  notes.push('unit tests did not run');
}

const hardening = read('reports/vitest-hardening.json');
if (hardening) {
  passed += hardening.numPassedTests;
  failed += hardening.numFailedTests + (hardening.numRuntimeErrorTestSuites ?? 0);
  notes.push(`hardening ${hardening.numPassedTests}/${hardening.numTotalTests}`);
} else {
  failed += 1;
  notes.push('hardening tests did not run');
}

const playwright = read('reports/playwright.json');
if (playwright) {
  const s = playwright.stats;
  passed += s.expected + s.flaky;
  failed += s.unexpected;
  notes.push(`e2e ${s.expected + s.flaky}/${s.expected + s.flaky + s.unexpected + s.skipped}`);
} else {
  failed += 1;
  notes.push('e2e tests did not run');
}

if (exitStatus !== 0 && failed === 0) {
  failed += 1;
  notes.push(`npm test exited ${exitStatus}`);
}
console.log(notes.join('; '));
console.log(`${passed} passed, ${failed} failed`);
