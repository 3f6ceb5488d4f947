// WebArena's evaluators (evaluation_harness/evaluators.py), under their metric names:
// `string_match` (exact_match / must_include / fuzzy_match), `url_match` ("GOLD in PRED") and
// `program_html` (a JS locator run on a site page after the episode). A task succeeds when every
// evaluator it names scores 1. fuzzy_match needs an LLM judge: without one configured it is not
// scored at all, and the evaluation says so (`not_scorable: 1`) instead of guessing.
import type { EvalConfig, ProgramHtml } from './tasks.ts';

/** StringEvaluator.clean_answer: trim, strip one pair of quotes, lower-case. */
export function cleanAnswer(answer: string): string {
  let a = answer.trim();
  if ((a.startsWith("'") && a.endsWith("'")) || (a.startsWith('"') && a.endsWith('"')))
    a = a.slice(1, -1);
  return a.toLowerCase();
}

export function exactMatch(ref: string, pred: string): number {
  return cleanAnswer(pred) === cleanAnswer(ref) ? 1 : 0;
}

/** nltk's word_tokenize, for the one case WebArena uses it (a one-character reference). */
function wordTokens(s: string): string[] {
  return s.match(/\w+|[^\w\s]/g) ?? [];
}

export function mustInclude(ref: string, pred: string, tokenize: boolean): number {
  const r = cleanAnswer(ref);
  const p = cleanAnswer(pred);
  if (tokenize && r.length === 1 && wordTokens(r).length === 1)
    return wordTokens(p).includes(r) ? 1 : 0;
  return p.includes(r) ? 1 : 0;
}

/** An LLM judge for fuzzy_match (WebArena's llm_fuzzy_match): 1 correct, 0 otherwise. */
export type FuzzyJudge = (o: {
  intent: string;
  reference: string;
  prediction: string;
}) => Promise<number>;

export interface StringScore {
  score: number | null;
  exact_match?: number;
  must_include?: number;
  fuzzy_match?: number;
}

export async function stringMatch(
  refs: NonNullable<EvalConfig['reference_answers']>,
  answer: string,
  intent: string,
  judge: FuzzyJudge | undefined,
): Promise<StringScore> {
  const pred = cleanAnswer(answer);
  const out: StringScore = { score: 1 };
  if (refs.exact_match !== undefined) {
    out.exact_match = exactMatch(refs.exact_match, pred);
    out.score = (out.score ?? 1) * out.exact_match;
  }
  if (refs.must_include !== undefined) {
    let s = 1;
    for (const m of refs.must_include) s *= mustInclude(m, pred, refs.must_include.length === 1);
    out.must_include = s;
    out.score = (out.score ?? 1) * s;
  }
  if (refs.fuzzy_match !== undefined) {
    if (pred.length === 0) {
      out.fuzzy_match = 0;
      out.score = 0;
    } else if (!judge) {
      // Honest: no judge, no score (never a guess from string overlap).
      out.score = null;
    } else {
      let s = 1;
      for (const reference of refs.fuzzy_match)
        s *= await judge({ intent, reference, prediction: answer });
      out.fuzzy_match = s;
      out.score = out.score === null ? null : out.score * s;
    }
  }
  return out;
}

function cleanUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

function parseUrl(url: string): { base: string; query: Map<string, string[]> } {
  const u = new URL(url);
  const query = new Map<string, string[]>();
  for (const [k, v] of u.searchParams) {
    // parse_qs drops blank values
    if (v === '') continue;
    query.set(k, [...(query.get(k) ?? []), v]);
  }
  return { base: cleanUrl(u.host + u.pathname), query };
}

/** URLEvaluator, rule "GOLD in PRED": the base path matches and every reference query value is present. */
export function urlMatch(reference: string, pred: string): number {
  let p: ReturnType<typeof parseUrl>;
  try {
    p = parseUrl(cleanUrl(pred));
  } catch {
    return 0;
  }
  const refs = reference.split(' |OR| ').map((u) => parseUrl(cleanUrl(u)));
  const base = refs.some((r) => r.base === p.base) ? 1 : 0;
  let q = 1;
  const wanted = new Map<string, Set<string>>();
  for (const r of refs)
    for (const [k, vs] of r.query)
      for (const v of vs) wanted.set(k, (wanted.get(k) ?? new Set()).add(v));
  for (const [k, values] of wanted)
    q *= [...values].some((v) => (p.query.get(k) ?? []).includes(v)) ? 1 : 0;
  return base * q;
}

/** HTMLContentEvaluator's check of one target on the text its locator selected. */
export function requiredContents(target: ProgramHtml, selected: string): number {
  const rc = target.required_contents;
  if ('exact_match' in rc) return exactMatch(rc.exact_match, selected);
  let s = 1;
  for (const content of rc.must_include)
    s *= content.split(' |OR| ').some((c) => mustInclude(c, selected, false) === 1) ? 1 : 0;
  return s;
}

/** Decodes the HTML entities the locator's text may carry (html.unescape in WebArena). */
export function unescapeHtml(s: string): string {
  return s
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

/** WebArena's llm_fuzzy_match prompt, sent to an OpenAI-compatible chat endpoint. */
export function openAiFuzzyJudge(o: {
  baseUrl: string;
  apiKey?: string;
  model: string;
}): FuzzyJudge {
  return async ({ intent, reference, prediction }) => {
    const message = `Help a teacher to grade the answer of a student given a question. Keep in mind that the student may use different phrasing or wording to answer the question. The goal is to evaluate whether the answer is semantically equivalent to the reference answer.\nquestion: ${intent}\nreference answer: ${reference}\nall the string 'N/A' that you see is a special sequence that means 'not achievable'\nstudent answer: ${prediction}\nConclude the judgement by correct/incorrect/partially correct.`;
    const res = await fetch(`${o.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: o.model,
        temperature: 0,
        messages: [
          { role: 'system', content: 'You are a helpful assistant' },
          { role: 'user', content: message },
        ],
      }),
    });
    if (!res.ok) throw new Error(`fuzzy_match judge answered HTTP ${res.status}`);
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const text = (body.choices?.[0]?.message?.content ?? '').toLowerCase();
    if (text.includes('partially correct') || text.includes('incorrect')) return 0;
    return text.includes('correct') ? 1 : 0;
  };
}
