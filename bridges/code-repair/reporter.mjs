// node:test reporter for the code-repair runner: one JSON line per finished test (file, name,
// status, the assertion message), which runner.ts parses. Plain ESM so `node --test` loads it as is.
export default async function* reporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const data = event.data;
    if (data.details?.type === 'suite') continue;
    // Tests filtered out by --test-name-pattern are reported as skipped passes: they did not run.
    if (data.skip !== undefined && data.skip !== false) continue;
    const error = data.details?.error;
    const cause = error?.cause ?? error;
    yield `${JSON.stringify({
      status: event.type === 'test:pass' ? 'pass' : 'fail',
      file: data.file ?? null,
      name: data.name,
      nesting: data.nesting,
      message: cause ? String(cause.message ?? cause).slice(0, 500) : undefined,
      ms: data.details?.duration_ms,
    })}\n`;
  }
}
