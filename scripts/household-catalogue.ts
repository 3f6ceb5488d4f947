// Writes bridges/household/data/catalogue.json: the household task catalogue as buildCatalogue()
// draws it, one task a line, so processes load it instead of drawing it. Task ids are referenced by
// saved runs and specs, so the file changes only on purpose; tasks.test.ts checks it matches.
// Usage: npx tsx scripts/household-catalogue.ts
import { writeFileSync } from 'node:fs';
import { buildCatalogue, catalogueRows, SPLITS } from '../bridges/household/tasks.ts';

const rows = catalogueRows(buildCatalogue());
const splits = SPLITS.map(
  (split) =>
    `  ${JSON.stringify(split)}: [\n${rows[split].map((r) => `    [${r.map((v) => JSON.stringify(v)).join(', ')}]`).join(',\n')}\n  ]`,
);
const target = new URL('../bridges/household/data/catalogue.json', import.meta.url);
writeFileSync(target, `{\n${splits.join(',\n')}\n}\n`);
console.log(
  `wrote ${SPLITS.map((s) => `${rows[s].length} ${s}`).join(', ')} tasks to ${target.pathname}`,
);
