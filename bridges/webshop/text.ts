// Text helpers WebShop's reward relies on: thefuzz/rapidfuzz `token_set_ratio` (with its default
// `full_process`), WebShop's `normalize_color`, and a deterministic tokeniser for search.

/** thefuzz `full_process`: lower case, every non-alphanumeric character becomes a space, trimmed. */
export function fullProcess(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function tokens(text: string): string[] {
  const processed = fullProcess(text);
  return processed === '' ? [] : processed.split(' ');
}

/** Indel distance (insertions + deletions only) = len(a) + len(b) - 2 * LCS(a, b). */
export function indelDistance(a: string, b: string): number {
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Array<number>(b.length + 1).fill(0);
  let curr = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      curr[j] =
        a[i - 1] === b[j - 1] ? (prev[j - 1] ?? 0) + 1 : Math.max(prev[j] ?? 0, curr[j - 1] ?? 0);
    }
    [prev, curr] = [curr, prev];
  }
  return a.length + b.length - 2 * (prev[b.length] ?? 0);
}

function normalizedSimilarity(distance: number, lengthSum: number): number {
  return lengthSum === 0 ? 100 : 100 * (1 - distance / lengthSum);
}

/**
 * rapidfuzz `fuzz.token_set_ratio` (what thefuzz 0.20+ calls): compares the sorted shared tokens
 * with each side's remainder; 100 when one token set contains the other. 0..100.
 */
export function tokenSetRatio(s1: string, s2: string): number {
  const a = new Set(tokens(s1));
  const b = new Set(tokens(s2));
  if (a.size === 0 || b.size === 0) return 0;
  const intersect = [...a].filter((t) => b.has(t)).sort();
  const diffAB = [...a].filter((t) => !b.has(t)).sort();
  const diffBA = [...b].filter((t) => !a.has(t)).sort();
  if (intersect.length > 0 && (diffAB.length === 0 || diffBA.length === 0)) return 100;
  const diffABJoined = diffAB.join(' ');
  const diffBAJoined = diffBA.join(' ');
  const sectLen = intersect.join(' ').length;
  const sep = sectLen > 0 ? 1 : 0;
  const sectABLen = sectLen + sep + diffABJoined.length;
  const sectBALen = sectLen + sep + diffBAJoined.length;
  const result = normalizedSimilarity(
    indelDistance(diffABJoined, diffBAJoined),
    sectABLen + sectBALen,
  );
  if (sectLen === 0) return result;
  const sectABRatio = normalizedSimilarity(sep + diffABJoined.length, sectLen + sectABLen);
  const sectBARatio = normalizedSimilarity(sep + diffBAJoined.length, sectLen + sectBALen);
  return Math.max(result, sectABRatio, sectBARatio);
}

/** WebShop's COLOR_SET (web_agent_site/engine/normalize.py), in its order: the first hit wins. */
export const COLOR_SET = [
  'alabaster',
  'apricot',
  'aqua',
  'ash',
  'asphalt',
  'azure',
  'banana',
  'beige',
  'black',
  'blue',
  'blush',
  'bordeaux',
  'bronze',
  'brown',
  'burgundy',
  'camel',
  'camo',
  'caramel',
  'champagne',
  'charcoal',
  'cheetah',
  'chestnut',
  'chocolate',
  'christmas',
  'coffee',
  'cognac',
  'copper',
  'coral',
  'cranberry',
  'cream',
  'crystal',
  'dark',
  'denim',
  'eggplant',
  'elephant',
  'espresso',
  'fuchsia',
  'gold',
  'granite',
  'grape',
  'graphite',
  'grass',
  'gray',
  'green',
  'grey',
  'heather',
  'indigo',
  'ivory',
  'ivy',
  'khaki',
  'lavender',
  'lemon',
  'leopard',
  'light',
  'lilac',
  'lime',
  'magenta',
  'maroon',
  'mauve',
  'merlot',
  'midnight',
  'mint',
  'mocha',
  'multicolor',
  'mushroom',
  'mustard',
  'natural',
  'navy',
  'nude',
  'olive',
  'orange',
  'peach',
  'pewter',
  'pink',
  'plum',
  'purple',
  'rainbow',
  'red',
  'rose',
  'ruby',
  'rust',
  'sage',
  'sand',
  'sapphire',
  'seafoam',
  'silver',
  'skin',
  'slate',
  'smoke',
  'snow',
  'steel',
  'stone',
  'tan',
  'taupe',
  'teal',
  'tiffany',
  'titanium',
  'turquoise',
  'violet',
  'walnut',
  'wheat',
  'white',
  'wine',
  'yellow',
] as const;

/** WebShop's normalize_color: a colour-bearing option collapses to the first colour word it contains. */
export function normalizeColor(text: string): string {
  for (const color of COLOR_SET) if (text.includes(color)) return color;
  return text;
}

/** Title case for generated titles ("gluten free" -> "Gluten Free"). */
export function titleCase(text: string): string {
  return text.replace(/(^|[\s-])(\p{L})/gu, (_, pre: string, c: string) => pre + c.toUpperCase());
}

/** A regex for `phrase` as whole words (so "2 pack" does not match inside "12 pack"). */
export function wholePhrase(phrase: string): RegExp {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u');
}
