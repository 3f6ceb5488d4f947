// The officeqa bridge's surface as data: the tools (list_documents, search, read, calculate, answer),
// the state view's schema, a safe arithmetic evaluator for `calculate`, and BM25 over passages.
import { z } from 'zod';
import { zodToJsonSchema } from '../core/schema.ts';
import type { JsonSchema, ToolSpec } from '../core/types.ts';
import type { Passage } from './extract.ts';

export const ENV_TYPE = 'officeqa';
export const SEARCH_RESULTS = 5;

export const Schemas = {
  list_documents: z.strictObject({}),
  search: z.strictObject({ query: z.string().min(1).max(300) }),
  read: z.strictObject({
    document: z.string().min(1).max(200).describe('a file name from list_documents'),
    page: z.number().int().min(1).describe('1-based page (a DOCX section, an XLSX worksheet)'),
  }),
  calculate: z.strictObject({
    expression: z.string().min(1).max(300).describe('numbers with + - * / and parentheses'),
  }),
  answer: z.strictObject({ text: z.string().max(500).describe('the final answer, with its unit') }),
};
export type ToolName = keyof typeof Schemas;

const DESCRIPTIONS: Record<ToolName, string> = {
  list_documents:
    'List the documents of the corpus (PDF reports, DOCX memos, XLSX appendices) with their page counts.',
  search: `Search every page of every document; returns the ${SEARCH_RESULTS} best passages with their document and page.`,
  read: 'Read one page of a document: a PDF page, a DOCX section, or an XLSX worksheet.',
  calculate:
    'Optional: evaluate an arithmetic expression (+ - * / and parentheses). You may do the arithmetic yourself; only the answer is graded.',
  answer:
    'Give the final answer and end the episode. Follow the unit and rounding the question asks for.',
};

export const officeqaTools: ToolSpec[] = (Object.keys(Schemas) as ToolName[]).map((name) => ({
  name,
  description: DESCRIPTIONS[name],
  parameters: zodToJsonSchema(Schemas[name]),
}));

export const PageRefSchema = z.strictObject({ document: z.string(), page: z.number().int() });

export const VerdictSchema = z.strictObject({
  em: z.number(),
  f1: z.number(),
  numeric: z.number(),
  tolerance: z.number(),
  rule: z.enum(['exact_match', 'numeric_tolerance', 'none']),
  success: z.boolean(),
});

export const OfficeqaStateSchema = z.strictObject({
  task: z.string(),
  reads: z.array(PageRefSchema).describe('pages read, in order'),
  searches: z.array(z.string()).describe('queries searched, in order'),
  calculations: z.number().int().min(0),
  answer: z.string().nullable(),
  verdict: VerdictSchema.nullable().describe(
    'the scoring of the answer (EM, F1, numeric) once given',
  ),
  steps: z.number().int().min(0),
  invalidActions: z.number().int().min(0),
  done: z.boolean(),
});
export type OfficeqaState = z.infer<typeof OfficeqaStateSchema>;
export const officeqaStateSchema: JsonSchema = zodToJsonSchema(OfficeqaStateSchema);

export const SnapshotSchema = z.object({
  envType: z.literal(ENV_TYPE),
  reset: z.object({
    taskId: z.string(),
    seed: z.number(),
    options: z.record(z.string(), z.unknown()).optional(),
  }),
  actions: z.array(z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) })),
  /** `setupAt`: how many of `actions` a Stage's set-up had made when it called afterSetup. */
  state: z
    .object({ setupAt: z.number().int().min(0).optional() })
    .passthrough()
    .optional(),
});

/** + - * / and parentheses over decimal numbers (thousands separators allowed); no names, no calls. */
export function calculate(expression: string): number {
  const src = expression.replace(/(\d),(?=\d{3}\b)/g, '$1');
  const tokens = src.match(/\d+(?:\.\d+)?|[-+*/()]|\S/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const take = () => tokens[i++];
  const primary = (): number => {
    const t = take();
    if (t === undefined) throw new Error('the expression ends too early');
    if (t === '(') {
      const v = sum();
      if (take() !== ')') throw new Error('a parenthesis is not closed');
      return v;
    }
    if (t === '-') return -primary();
    if (t === '+') return primary();
    if (/^\d/.test(t)) return Number(t);
    throw new Error(`'${t}' is not a number or an operator`);
  };
  const product = (): number => {
    let v = primary();
    while (peek() === '*' || peek() === '/') {
      const op = take();
      const r = primary();
      if (op === '/' && r === 0) throw new Error('division by zero');
      v = op === '*' ? v * r : v / r;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === '+' || peek() === '-') v = take() === '+' ? v + product() : v - product();
    return v;
  };
  const v = sum();
  if (i < tokens.length) throw new Error(`unexpected '${tokens[i]}'`);
  return v;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** BM25 (k1 = 0.9, b = 0.4) over the passages' indexed words; ties keep corpus order. */
export function rank(passages: Passage[], query: string, k = SEARCH_RESULTS): Passage[] {
  const q = [...new Set(words(query))];
  const docs = passages.map((p) => words(p.indexed));
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const N = docs.length;
  const scored = docs.map((d, i) => {
    let s = 0;
    for (const w of q) {
      const tf = d.filter((x) => x === w).length;
      if (!tf) continue;
      const idf = Math.log(1 + (N - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
      s += (idf * tf * 1.9) / (tf + 0.9 * (1 - 0.4 + (0.4 * d.length) / avg));
    }
    return { i, s };
  });
  return scored
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, k)
    .map((x) => passages[x.i] as Passage);
}
