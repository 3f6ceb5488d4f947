// The scripted officeqa policies: careful answers every kind; each flawed twin fails its own kind.
import { describe, expect, it, vi } from 'vitest';
import { allTasks, officeqaBridge } from '../../../bridges/officeqa/index.ts';
import { getPolicy } from '../index.ts';
import { play } from '../testing/play.ts';

vi.setConfig({ testTimeout: 60_000 });

const pick = (type: string, template?: string) =>
  allTasks()
    .filter((t) => t.info.type === type && (!template || t.info.meta?.template === template))
    .slice(0, 2);
const rate = async (policy: string, tasks: ReturnType<typeof pick>) => {
  let ok = 0;
  for (const t of tasks)
    if (
      (
        await play(officeqaBridge, getPolicy(`scripted:officeqa-${policy}`), {
          taskId: t.info.id,
          seed: 0,
          maxSteps: 20,
        })
      ).success
    )
      ok++;
  return ok;
};

describe('scripted officeqa policies', () => {
  const footnotes = pick('footnote');
  const arithmetic = [...pick('arithmetic', 'growth'), ...pick('arithmetic', 'share')];
  const lookups = pick('lookup', 'cell');

  it('careful answers lookups, footnote corrections, arithmetic and cross-document joins', async () => {
    expect(
      await rate('careful', [...lookups, ...footnotes, ...arithmetic, ...pick('cross_document')]),
    ).toBe(10);
  });

  it('no-footnotes fails where a footnote restates the figure, not on plain lookups', async () => {
    expect(await rate('no-footnotes', footnotes)).toBe(0);
    expect(await rate('no-footnotes', lookups)).toBe(2);
  });

  it('no-arithmetic fails the computed questions; first-hit reads nothing and fails arithmetic', async () => {
    expect(await rate('no-arithmetic', arithmetic)).toBe(0);
    expect(await rate('first-hit', arithmetic)).toBe(0);
    const r = await play(officeqaBridge, getPolicy('scripted:officeqa-first-hit'), {
      taskId: footnotes[0]!.info.id,
      seed: 0,
    });
    expect(r.commands).toEqual([expect.stringMatching(/search/), expect.stringMatching(/answer/)]);
  });
});
