// Reads a webshop instruction the way an agent would: product type, required attributes, wanted
// option values and the price cap, from the bridge's instruction grammar
// ("i need a <type> that is <a>, <b> and <c>, with <option> <value> and …, and price lower than N dollars").
export interface WebshopGoal {
  productType: string;
  attributes: string[];
  /** Wanted option values (names dropped: the item page shows values as buttons). */
  options: { name: string; value: string }[];
  priceUpper: number | null;
  /** The instruction without its price clause. */
  request: string;
}

const GOAL_RE =
  /^(?:i need|i am looking for|i want to buy|find me)\s+(?:(?:a|an)\s+)?(.+?)\s+that\s+(?:is|are)\s+(.+?)(?:,\s+with\s+(.+?))?(?:,\s+and price lower than\s+([\d.]+)\s+dollars)?\s*$/;
const PRICE_RE = /,?\s*and price lower than\s+([\d.]+)\s+dollars\s*$/;

export function parseGoal(instruction: string): WebshopGoal {
  const text = instruction.trim().toLowerCase();
  const priceMatch = PRICE_RE.exec(text);
  const priceUpper = priceMatch ? Number(priceMatch[1]) : null;
  const request = text.replace(PRICE_RE, '').trim();
  const m = GOAL_RE.exec(text);
  if (!m) return { productType: request, attributes: [], options: [], priceUpper, request };
  const attributes = m[2]!
    .split(/,\s+|\s+and\s+/)
    .map((a) => a.trim())
    .filter(Boolean);
  const options = (m[3] ?? '')
    .split(/\s+and\s+/)
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => {
      const space = o.indexOf(' ');
      return space < 0
        ? { name: o, value: o }
        : { name: o.slice(0, space), value: o.slice(space + 1) };
    });
  return { productType: m[1]!.trim(), attributes, options, priceUpper, request };
}
