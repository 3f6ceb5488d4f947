// Generates schemas/harness-spec.schema.json (the users' copy of HarnessSpecSchema).
// `npx tsx server/harness/schema-file.ts` rewrites it; schema-file.test.ts fails when it is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { HarnessSpecShapeSchema } from './spec.ts';

export const SPEC_SCHEMA_PATH = fileURLToPath(
  new URL('../../schemas/harness-spec.schema.json', import.meta.url),
);

export function renderSpecSchema(): string {
  const schema = z.toJSONSchema(HarnessSpecShapeSchema, { target: 'draft-2020-12', io: 'input' });
  const doc = {
    $id: 'https://envharness.studio/schemas/harness-spec.schema.json',
    title: 'EnvHarness Studio harness spec (version 1)',
    description:
      'A harness stack as a tree: leaves are {type: "base", bridge, task}; inner nodes are stage (set-up actions replayed after reset), contract (declarative rules and/or sandboxed hook code) and chain (two legs joined sequentially, by branch, switch or alternation). Order matters: the outer node wraps the inner one.',
    ...schema,
  };
  // zod names recursive definitions __schemaN; give them the names users read in the docs.
  const text = JSON.stringify(doc, null, 2);
  const defs = Object.keys((schema as { $defs?: object }).$defs ?? {});
  const names: Record<string, string> = {};
  for (const key of defs) {
    const def = JSON.stringify((schema as { $defs: Record<string, unknown> }).$defs[key]);
    names[key] = def.includes('"const":"base"')
      ? 'HarnessNode'
      : def.includes('"type":"null"')
        ? 'Json'
        : key;
  }
  return `${defs.reduce((t, k) => t.replaceAll(`"#/$defs/${k}"`, `"#/$defs/${names[k]}"`).replaceAll(`"${k}": {`, `"${names[k]}": {`), text)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SPEC_SCHEMA_PATH, renderSpecSchema());
  console.log(`wrote ${SPEC_SCHEMA_PATH}`);
}
