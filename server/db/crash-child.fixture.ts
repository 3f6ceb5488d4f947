// Test fixture (index.test.ts): opens an embedded database folder, commits rows, reports, and waits
// to be killed — so the test can prove committed data and the folder survive a SIGKILL.
import { openDb } from './index.ts';

const [dir, count] = process.argv.slice(2);
if (!dir || !count) throw new Error('usage: crash-child.fixture.ts <dir> <count>');
const { db } = await openDb({ kind: 'pglite', dir });
for (let i = 0; i < Number(count); i++) {
  await db.harness.create({ data: { name: `committed ${i}`, bridge: 'toy24' } });
}
process.stdout.write('committed\n');
setInterval(() => {}, 1000);
