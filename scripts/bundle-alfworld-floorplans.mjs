// Bundles ALFWorld's floor-plan layout files (alfworld/gen/layouts/FloorPlan<N>-objects.json and
// -openable.json, MIT) into bridges/household/data/floorplans.json, the one file the household
// bridge reads: each plan's `objects` list unchanged, and the keys of its `-openable.json` (the
// receptacle instances, `Type|x|y|z`) unchanged — only the agent poses they map to are dropped.
// Usage: node scripts/bundle-alfworld-floorplans.mjs <dir with the ALFWorld layout files>
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/bundle-alfworld-floorplans.mjs <alfworld layouts dir>');
  process.exit(2);
}
const numbers = readdirSync(dir)
  .map((f) => /^FloorPlan(\d+)-objects\.json$/.exec(f)?.[1])
  .filter((n) => n !== undefined)
  .map(Number)
  .sort((a, b) => a - b);
const plans = {};
for (const n of numbers) {
  const read = (kind) =>
    JSON.parse(readFileSync(path.join(dir, `FloorPlan${n}-${kind}.json`), 'utf8'));
  plans[`FloorPlan${n}`] = { objects: read('objects'), receptacles: Object.keys(read('openable')) };
}
const out = {
  _source:
    'ALFWorld (https://github.com/alfworld/alfworld, alfworld/gen/layouts/, commit ca98194122f6759fdc11960e56f520d6175fd960), MIT License, Copyright (c) 2020 Mohit Shridhar and others. FloorPlan<N>-objects.json as `objects`, unchanged; the keys of FloorPlan<N>-openable.json as `receptacles`, unchanged (agent poses dropped). See bridges/household/data/README.md.',
  plans,
};
const target = new URL('../bridges/household/data/floorplans.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
console.log(`${numbers.length} floor plans -> ${target.pathname}`);
