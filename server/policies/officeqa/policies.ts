// Scripted officeqa policies: one analyst that parses the question (our templates' wording), finds
// the pages with search, reads them, applies the footnotes that restate figures, computes with
// `calculate`, and answers with the unit and rounding asked for — with one flaw switched on per
// policy. `first-hit` answers with the first figure of the first search result; `no-footnotes`
// ignores restatements; `no-arithmetic` copies a retrieved figure instead of computing.
import type { Action, Json, Observation } from '../../../bridges/core/types.ts';
import { type AgentIo, coroutineSession } from '../code-repair/coroutine.ts';
import type { Policy, PolicyDescriptor } from '../types.ts';

export interface AnalystFlaws {
  firstHit?: boolean;
  noFootnotes?: boolean;
  noArithmetic?: boolean;
}

const call = (name: string, args: Record<string, Json> = {}): Action => ({ name, args });
const num = (s: string) => Number(s.replace(/,/g, ''));
const fmt = (n: number) => n.toLocaleString('en-US');
const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'];

interface Hit {
  document: string;
  page: number;
  text: string;
}

function hits(o: Observation): Hit[] {
  return [...o.text.matchAll(/^\d+\. (\S+), page (\d+): (.*)$/gm)].map((m) => ({
    document: m[1] as string,
    page: Number(m[2]),
    text: m[3] as string,
  }));
}

/** A report page's table: item -> quarter values (restated ones replaced unless told not to). */
function table(text: string, restate: boolean): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  const notes = new Map<string, number>();
  for (const m of text.matchAll(/^\[(\w)\] Restated after the audit: .+ is ([\d,]+) \(reported/gm))
    notes.set(m[1] as string, num(m[2] as string));
  for (const line of text.split('\n')) {
    const parts = line.split(/ {2,}/);
    if (parts.length < 6) continue;
    const cells = parts.slice(1, 5).map((c) => {
      const m = /^([\d,]+)(?:\[(\w)\])?$/.exec(c.trim());
      if (!m) return Number.NaN;
      const noted = m[2] ? notes.get(m[2]) : undefined;
      return restate && noted !== undefined ? noted : num(m[1] as string);
    });
    if (cells.every((x) => !Number.isNaN(x))) rows.set((parts[0] as string).toLowerCase(), cells);
  }
  return rows;
}

class Analyst {
  constructor(
    private readonly io: AgentIo,
    readonly flaws: AnalystFlaws,
  ) {}

  async search(query: string): Promise<Hit[]> {
    return hits(await this.io.act(call('search', { query }), 'search'));
  }
  async read(document: string, page: number): Promise<string> {
    return (await this.io.act(call('read', { document, page }))).text;
  }
  async answer(text: string, why?: string): Promise<string> {
    await this.io.act(call('answer', { text }), why);
    return `answered ${text}`;
  }
  async calc(expression: string): Promise<number> {
    const o = await this.io.act(call('calculate', { expression }), 'compute');
    const m = / = (-?[\d.e+-]+)$/.exec(o.text);
    return m ? Number(m[1]) : Number.NaN;
  }

  /** The department page of a year's report, found by search and read whole. */
  async reportTable(dept: string, year: string): Promise<Map<string, number[]>> {
    const found = await this.search(`${dept} FY${year} spending thousand dollars`);
    const hit =
      found.find(
        (h) =>
          h.document === `annual-report-fy${year}.pdf` && h.text.startsWith(`${dept} — FY${year}`),
      ) ?? found.find((h) => h.document === `annual-report-fy${year}.pdf`);
    if (!hit) return new Map();
    return table(await this.read(hit.document, hit.page), !this.flaws.noFootnotes);
  }

  async memoLine(dept: string, words: string, re: RegExp): Promise<number | undefined> {
    const found = await this.search(`${dept} ${words}`);
    for (const h of found
      .filter((x) => x.document.startsWith('memo-') && x.text.includes(dept))
      .slice(0, 2)) {
      const m = re.exec(await this.read(h.document, h.page));
      if (m) return num(m[1] as string);
    }
    return undefined;
  }

  async fteQ4(dept: string, year: string): Promise<number | undefined> {
    const text = await this.read(`appendix-fy${year}.xlsx`, 1);
    const row = text.split('\n').find((l) => l.startsWith(`${dept} |`));
    const v = row?.split(' | ')[4];
    return v === undefined ? undefined : Number(v);
  }
}

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;

async function solveOnce(io: AgentIo, goal: string, flaws: AnalystFlaws): Promise<string> {
  const a = new Analyst(io, flaws);
  if (flaws.firstHit) {
    // The question's words as the query; the first figure of the first result as the answer.
    const query = goal.replace(
      /\b(What|How|much|many|was|the|of|in|did|By|what|had|been|to|is|its|than|a)\b/g,
      ' ',
    );
    const [top] = await a.search(
      query
        .replace(/[^\w\s.-]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 200),
    );
    const n = top ? /-?\d[\d,]*(?:\.\d+)?/.exec(top.text.replace(/^[^:]*:/, ''))?.[0] : undefined;
    return a.answer(n ?? 'unknown', 'first figure of the first result');
  }
  let m = /^What was the (.+) spending of (.+) in (Q\d) FY(\d{4}), in thousand dollars\?$/.exec(
    goal,
  );
  if (m) {
    const [, item, dept, q, year] = m as unknown as string[];
    const row = (await a.reportTable(dept as string, year as string)).get(item as string);
    const v = row?.[QUARTERS.indexOf(q as string)];
    return a.answer(v === undefined ? 'unknown' : `${fmt(v)} thousand dollars`);
  }
  m = /^How many people did (.+) employ at the end of FY(\d{4})\?$/.exec(goal);
  if (m) {
    const [, dept, year] = m as unknown as string[];
    const re =
      year === '2023'
        ? /end of FY2023 .+ employed ([\d,]+)/
        : /end of FY2024 its headcount was ([\d,]+)/;
    const v = await a.memoLine(dept as string, 'staffing headcount employed', re);
    return a.answer(v === undefined ? 'unknown' : `${fmt(v)} people`);
  }
  m =
    /^How much had been spent on the capital project "(.+)" by the end of FY2024, in thousand dollars\?$/.exec(
      goal,
    );
  if (m) {
    const name = m[1] as string;
    const text = await a.read('appendix-fy2024.xlsx', 2);
    const row = text.split('\n').find((l) => l.startsWith(`${name} |`));
    const v = row?.split(' | ')[3];
    return a.answer(v === undefined ? 'unknown' : `${fmt(Number(v))} thousand dollars`);
  }
  m = /^By what percentage did the (.+) spending of (.+) change from FY2023 to FY2024/.exec(goal);
  if (m) {
    const [, item, dept] = m as unknown as string[];
    const r23 = (await a.reportTable(dept as string, '2023')).get(item as string) ?? [];
    const r24 = (await a.reportTable(dept as string, '2024')).get(item as string) ?? [];
    if (flaws.noArithmetic)
      return a.answer(`${fmt(r24.reduce((x, y) => x + y, 0))}`, 'copied the FY2024 total');
    const t23 = await a.calc(r23.join(' + '));
    const t24 = await a.calc(r24.join(' + '));
    return a.answer(pct(await a.calc(`(${t24} - ${t23}) / ${t23}`)));
  }
  m =
    /^What share of the total FY(\d{4}) spending of (.+) \(after restatements\) went to (.+)\? /.exec(
      goal,
    );
  if (m) {
    const [, year, dept, item] = m as unknown as string[];
    const t = await a.reportTable(dept as string, year as string);
    const row = t.get(item as string) ?? [];
    if (flaws.noArithmetic)
      return a.answer(`${fmt(row.reduce((x, y) => x + y, 0))}`, 'copied the item total');
    const all = [...t.entries()].filter(([k]) => k !== 'department total').flatMap(([, v]) => v);
    const part = await a.calc(row.join(' + '));
    const whole = await a.calc(all.join(' + '));
    return a.answer(pct(await a.calc(`${part} / ${whole}`)));
  }
  m = /^How much more did (.+) spend on (.+) in Q4 than in Q1 of FY(\d{4})/.exec(goal);
  if (m) {
    const [, dept, item, year] = m as unknown as string[];
    const row = (await a.reportTable(dept as string, year as string)).get(item as string) ?? [];
    if (flaws.noArithmetic)
      return a.answer(`${fmt(row[3] ?? 0)} thousand dollars`, 'copied the Q4 figure');
    return a.answer(`${fmt(await a.calc(`${row[3]} - ${row[0]}`))} thousand dollars`);
  }
  m = /^What was the Q4 FY(\d{4}) spending of (.+) per full-time equivalent\?/.exec(goal);
  if (m) {
    const [, year, dept] = m as unknown as string[];
    const t = await a.reportTable(dept as string, year as string);
    const q4 = [...t.entries()].filter(([k]) => k !== 'department total').map(([, v]) => v[3] ?? 0);
    if (flaws.noArithmetic)
      return a.answer(
        `${fmt(t.get('department total')?.[3] ?? 0)} thousand dollars`,
        'copied the Q4 total',
      );
    const total = await a.calc(q4.join(' + '));
    const fte = await a.fteQ4(dept as string, year as string);
    return a.answer(`${(await a.calc(`${total} / ${fte}`)).toFixed(2)} thousand dollars`);
  }
  m = /^How much larger is the approved FY2025 budget of (.+) than its FY(\d{4}) spending/.exec(
    goal,
  );
  if (m) {
    const [, dept, year] = m as unknown as string[];
    const budget = await a.memoLine(
      dept as string,
      'approved operating budget FY2025',
      /budget of .+ for FY2025 is ([\d,]+)/,
    );
    if (flaws.noArithmetic)
      return a.answer(`${fmt(budget ?? 0)} thousand dollars`, 'copied the approved budget');
    const t = await a.reportTable(dept as string, year as string);
    const all = [...t.entries()].filter(([k]) => k !== 'department total').flatMap(([, v]) => v);
    const spent = await a.calc(all.join(' + '));
    return a.answer(`${fmt(await a.calc(`${budget} - ${spent}`))} thousand dollars`);
  }
  return a.answer('unknown', 'did not understand the question');
}

async function analyst(io: AgentIo, goal: string, flaws: AnalystFlaws): Promise<string> {
  await solveOnce(io, goal, flaws);
  // Control comes back only when the answer was refused (a harness blocked it): the analyst takes
  // the hint once and works the question again the careful way.
  await solveOnce(io, goal, {});
  return 'answer refused twice';
}

function analystPolicy(descriptor: PolicyDescriptor, flaws: AnalystFlaws): Policy {
  return {
    descriptor,
    async start(context) {
      return coroutineSession((io) => analyst(io, context.task.goal, flaws));
    },
  };
}

const BRIDGE = 'officeqa';

export const officeqaPolicies: Policy[] = [
  analystPolicy(
    {
      id: 'scripted:officeqa-careful',
      bridge: BRIDGE,
      kind: 'scripted',
      description:
        'Parses the question, searches for the pages, reads them, applies the footnotes that restate figures, computes with calculate, and answers with the unit and rounding asked for.',
      weaknesses: ['Only understands the question wordings it was written for.'],
    },
    {},
  ),
  analystPolicy(
    {
      id: 'scripted:officeqa-first-hit',
      bridge: BRIDGE,
      kind: 'scripted',
      description:
        'Searches the question and answers with the first figure of the first search result; reads nothing.',
      weaknesses: [
        'Answers from the first search result: the wrong quarter, year or document, no footnotes, no arithmetic.',
      ],
    },
    { firstHit: true },
  ),
  analystPolicy(
    {
      id: 'scripted:officeqa-no-footnotes',
      bridge: BRIDGE,
      kind: 'scripted',
      description:
        'The careful analyst, except that it ignores the footnotes that restate figures.',
      weaknesses: [
        'Uses figures as first reported: wrong wherever a footnote restated one (and in sums that include it).',
      ],
    },
    { noFootnotes: true },
  ),
  analystPolicy(
    {
      id: 'scripted:officeqa-no-arithmetic',
      bridge: BRIDGE,
      kind: 'scripted',
      description:
        'The careful analyst, except that it copies a retrieved figure where the question asks for a computed one.',
      weaknesses: [
        'Never computes: answers a change, share, difference or ratio with one of the figures it read.',
      ],
    },
    { noArithmetic: true },
  ),
];
