// Scripted spreadsheet policies: one agent that parses the instruction and does the work with
// formulas (or computed values where a formula would need functions the workbook lacks), with one
// flaw switched on per policy.
import type { Action, Json } from '../../../bridges/core/types.ts';
import { type AgentIo, coroutineSession } from '../code-repair/coroutine.ts';
import { createRng, mixSeed } from '../rng.ts';
import type { Policy, PolicyDescriptor } from '../types.ts';

export interface SheetFlaws {
  /** Stops one row short of every range it computes ("rows 2 to n" becomes 2 to n-1). */
  offByOne?: boolean;
  /** Treats row 1 as data: headers are summed, sorted and grouped like values. */
  headerBlind?: boolean;
}

const act = (name: string, args: Record<string, Json> = {}): Action => ({ name, args });

/** Rows of a read_range observation: `7 | Gear-104 | 120 | 9.5` -> ['Gear-104', '120', '9.5']. */
export function parseRows(text: string): string[][] {
  return [...text.matchAll(/^\d+ \| (.*)$/gm)].map((m) =>
    m[1]!.split(' | ').map((c) => c.replace(/ \(=.*\)$/, '')),
  );
}

const num = (text: string) => {
  const n = Number(text);
  return text.trim() === '' || Number.isNaN(n) ? 0 : n;
};

async function sheetAgent(
  io: AgentIo,
  goal: string,
  flaws: SheetFlaws,
  rng: () => number,
): Promise<string> {
  // The policy seed's choice: about half the seeds look at the workbook's sheets before working
  // (a wasted step when the instruction already says everything), so G policy seeds differ.
  if (rng() < 0.5) await io.act(act('list_sheets'), 'look at the workbook first');
  const first = flaws.headerBlind ? 1 : 2;
  const end = (n: number) => (flaws.offByOne ? n - 1 : n);
  const rows = (n: number) => Array.from({ length: end(n) - first + 1 }, (_, i) => first + i);
  const submit = async (why: string) => {
    await io.act(act('submit'), why);
    return why;
  };
  let m = /On sheet (\w+), fill (\w)2:\w(\d+) with the total of .* \(columns (\w) and (\w)\)/.exec(
    goal,
  );
  if (m) {
    const [, sheet, out, n, a, b] = m;
    const values = rows(Number(n)).map((r) => [`=${a}${r}+${b}${r}`]);
    await io.act(act('write_range', { start: `${sheet}!${out}${first}`, values }), 'row totals');
    return submit('filled the totals');
  }
  m =
    /On sheet (\w+), write in (\w+\d+) the (average|sum|maximum|minimum) of .* \(column (\w), rows \d+ to (\d+)\)/.exec(
      goal,
    );
  if (m) {
    const [, sheet, cell, fn, col, n] = m;
    const excel = { average: 'AVERAGE', sum: 'SUM', maximum: 'MAX', minimum: 'MIN' }[fn as 'sum'];
    const formula = `=${excel}(${col}${first}:${col}${end(Number(n))})`;
    await io.act(act('write_cell', { cell: `${sheet}!${cell}`, formula }), fn);
    return submit('wrote the aggregate');
  }
  m =
    /On sheet (\w+), sort the data rows \(rows \d+ to (\d+), columns (\w) to (\w)\) by .* \(column (\w)\) in descending order/.exec(
      goal,
    );
  if (m) {
    const [, sheet, n, from, to, key] = m;
    const read = await io.act(
      act('read_range', { range: `${sheet}!${from}${first}:${to}${end(Number(n))}` }),
    );
    const data = parseRows(read.text);
    const k = key!.charCodeAt(0) - from!.charCodeAt(0);
    data.sort((x, y) => num(y[k]!) - num(x[k]!));
    const values = data.map((row) =>
      row.map((c): Json => (c !== '' && !Number.isNaN(Number(c)) ? Number(c) : c)),
    );
    await io.act(act('write_range', { start: `${sheet}!${from}${first}`, values }), 'sorted rows');
    return submit('sorted');
  }
  if (/Add a sheet named Summary/.test(goal)) {
    const size = await io.act(act('list_sheets'));
    const n = Number(/Orders \(A1:\w+?(\d+)\)/.exec(size.text)?.[1] ?? 0);
    if (!n) return submit('could not find the Orders sheet');
    const read = await io.act(act('read_range', { range: `Orders!B${first}:C${end(n)}` }));
    const totals = new Map<string, number>();
    for (const [region, sales] of parseRows(read.text))
      totals.set(region!, (totals.get(region!) ?? 0) + num(sales!));
    const values: Json[][] = [
      ['Region', 'Total sales'],
      ...[...totals.keys()].sort().map((r) => [r, totals.get(r)!]),
    ];
    await io.act(act('add_sheet', { name: 'Summary' }));
    await io.act(act('write_range', { start: 'Summary!A1', values }), 'summary table');
    return submit('summary written');
  }
  m =
    /On sheet (\w+), fill (\w)2:\w(\d+) with each category's share .* rounded to (\d+) decimal/.exec(
      goal,
    );
  if (m) {
    const [, sheet, out, n, digits] = m;
    const last = end(Number(n));
    const values = rows(Number(n)).map((r) => [
      `=ROUND(B${r}/SUM($B$${first}:$B$${last}),${digits})`,
    ]);
    await io.act(act('write_range', { start: `${sheet}!${out}${first}`, values }), 'shares');
    return submit('shares filled');
  }
  return submit('did not understand the instruction');
}

function sheetPolicy(descriptor: PolicyDescriptor, flaws: SheetFlaws): Policy {
  return {
    descriptor,
    async start(context) {
      const rng = createRng(mixSeed(context.seed, descriptor.id));
      return coroutineSession((io) => sheetAgent(io, context.task.goal, flaws, rng));
    },
  };
}

export const spreadsheetFormulas = sheetPolicy(
  {
    id: 'scripted:spreadsheet-formulas',
    bridge: 'spreadsheet',
    kind: 'scripted',
    description:
      'Parses the instruction, writes whole columns of formulas with write_range, sorts and groups by reading the data and writing values, then submits. About half its seeds list the sheets first.',
    weaknesses: [
      'Writes values, not formulas, for sorted rows and summary sheets (fine for the verifier, brittle if the data change).',
      'Only understands the instruction phrasings it was written for.',
    ],
  },
  {},
);

export const spreadsheetOffByOne = sheetPolicy(
  {
    id: 'scripted:spreadsheet-off-by-one',
    bridge: 'spreadsheet',
    kind: 'scripted',
    description: 'The same agent, but every range it computes stops one row short.',
    weaknesses: [
      'Off-by-one on ranges: the last data row is never filled, summed, sorted or grouped.',
    ],
  },
  { offByOne: true },
);

export const spreadsheetHeaderBlind = sheetPolicy(
  {
    id: 'scripted:spreadsheet-header-blind',
    bridge: 'spreadsheet',
    kind: 'scripted',
    description: 'The same agent, but it treats the header row as data.',
    weaknesses: [
      'Ignores the header row: sorts it into the data and counts it as a group in summaries (harmless for sums, which skip text).',
    ],
  },
  { headerBlind: true },
);

export const spreadsheetPolicies: Policy[] = [
  spreadsheetFormulas,
  spreadsheetOffByOne,
  spreadsheetHeaderBlind,
];
