// The shop's search engine: Okapi BM25 over each product's title, bullet points, category and option
// values (WebShop searches with pyserini BM25; k1 and b are pyserini's defaults). Top 50, as WebShop.
import { catalogue, type Product } from './catalogue.ts';
import { tokens } from './text.ts';

export const MAX_RESULTS = 50;
const K1 = 0.9;
const B = 0.4;

interface Index {
  docs: { product: Product; tf: Map<string, number>; length: number }[];
  df: Map<string, number>;
  avgLength: number;
}

let cached: Index | undefined;

function documentText(p: Product): string {
  return [
    p.title,
    p.features.join(' '),
    p.productCategory,
    p.options.flatMap((o) => o.values).join(' '),
  ].join(' ');
}

function index(): Index {
  if (cached) return cached;
  const df = new Map<string, number>();
  const docs = catalogue().products.map((product) => {
    const words = tokens(documentText(product));
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
    return { product, tf, length: words.length };
  });
  const avgLength = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  cached = { docs, df, avgLength };
  return cached;
}

/** Products for a query, best first (ties by catalogue order), at most 50. */
export function search(query: string): Product[] {
  const { docs, df, avgLength } = index();
  const terms = [...new Set(tokens(query))];
  if (terms.length === 0) return [];
  const n = docs.length;
  const scored: { product: Product; score: number; order: number }[] = [];
  docs.forEach((doc, order) => {
    let score = 0;
    for (const term of terms) {
      const f = doc.tf.get(term);
      if (!f) continue;
      const d = df.get(term) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / avgLength));
    }
    if (score > 0) scored.push({ product: doc.product, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.slice(0, MAX_RESULTS).map((s) => s.product);
}
