// WebShop's reward (web_agent_site/engine/goal.py get_reward), term by term:
//   reward = r_type * (n_att + n_opt + r_price) / (|att| + |opt| + 1)
// Attribute and option matches use token_set_ratio > 85; an attribute also matches when it appears in
// the title, the bullet points or the description. One deliberate stand-in: WebShop tags nouns with
// spaCy; here the catalogue knows its titles' nouns (type nouns + brand), so the type reward is exact.
import type { Product } from './catalogue.ts';
import type { Goal } from './tasks.ts';
import { normalizeColor, tokenSetRatio } from './text.ts';

const MATCH = 85;

export interface TypeReward {
  rType: number;
  queryMatch: boolean;
  categoryMatch: boolean;
  titleScore: number;
}

export interface RewardBreakdown extends TypeReward {
  reward: number;
  rAtt: number;
  numAttrMatches: number;
  rOption: number | null;
  numOptionMatches: number;
  rPrice: boolean;
}

export function typeReward(product: Product, goal: Goal): TypeReward {
  const queryMatch = product.query === goal.query;
  const purchasedCategory = new Set(product.productCategory.split('›').map((s) => s.trim()));
  const goalCategory = goal.productCategory.split('›').map((s) => s.trim());
  const categoryMatch = new Set(goalCategory.filter((c) => purchasedCategory.has(c))).size >= 2;
  const purchasedNouns = new Set(product.nouns);
  const desired = new Set(goal.nouns);
  const intersect = [...desired].filter((n) => purchasedNouns.has(n)).length;
  const titleScore = desired.size === 0 ? 0.2 : intersect / desired.size;
  let rType = 1;
  if (!(queryMatch || categoryMatch || titleScore > 0.2)) rType = 0.5;
  if (titleScore < 0.1) rType = 0.1;
  if (titleScore === 0) rType = 0;
  return { rType, queryMatch, categoryMatch, titleScore };
}

export function attributeReward(
  product: Product,
  goal: Goal,
): { rAtt: number; numAttrMatches: number } {
  const title = product.title.toLowerCase();
  const bullets = product.features.join(' ').toLowerCase();
  const description = product.description.toLowerCase();
  let numAttrMatches = 0;
  for (const g of goal.attributes) {
    const fuzzy = product.attributes.some((p) => tokenSetRatio(p, g) > MATCH);
    if (fuzzy || title.includes(g) || bullets.includes(g) || description.includes(g))
      numAttrMatches += 1;
  }
  return {
    rAtt: goal.attributes.length > 0 ? numAttrMatches / goal.attributes.length : 0,
    numAttrMatches,
  };
}

export function optionReward(
  purchasedOptions: string[],
  goalOptions: string[],
): { rOption: number | null; numOptionMatches: number } {
  const purchased = purchasedOptions.map(normalizeColor);
  const wanted = goalOptions.map(normalizeColor);
  let numOptionMatches = 0;
  for (const g of wanted) {
    if (purchased.some((p) => tokenSetRatio(p, g) > MATCH)) numOptionMatches += 1;
  }
  return {
    rOption: wanted.length > 0 ? numOptionMatches / wanted.length : null,
    numOptionMatches,
  };
}

/** The reward of buying `product` with `options` (option name -> chosen value) at `price`. */
export function getReward(
  product: Product,
  goal: Goal,
  price: number,
  options: Record<string, string>,
): RewardBreakdown {
  const type = typeReward(product, goal);
  const rPrice = price <= goal.priceUpper;
  const { rAtt, numAttrMatches } = attributeReward(product, goal);
  const { rOption, numOptionMatches } = optionReward(
    Object.values(options),
    Object.values(goal.options),
  );
  const total =
    (numAttrMatches + numOptionMatches + (rPrice ? 1 : 0)) /
    (goal.attributes.length + Object.keys(goal.options).length + 1);
  // Rounded so that 1 is exactly 1 (success) and scores print stably.
  const reward = Math.round(total * type.rType * 1e6) / 1e6;
  return { ...type, reward, rAtt, numAttrMatches, rOption, numOptionMatches, rPrice };
}
