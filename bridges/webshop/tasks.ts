// Instructions (WebShop "goals") generated from goal products: required attributes (a subset of the
// product's), one value per chosen option dimension, and WebShop's price cap rule
// (`sorted(random.sample([p for p in PRICE_RANGE if p > price][:4], 2))[1]`).
import { filterTasks } from '../core/helpers.ts';
import type { TaskFilter, TaskInfo } from '../core/types.ts';
import { catalogue, type Product } from './catalogue.ts';
import { createRng, fnv1a, pick, sample } from './rng.ts';

export const SPLITS = ['train', 'eval', 'test'] as const;
export const TASK_SEED = 424242;
/** Every second product is a goal product: 600 tasks. */
export const GOAL_STRIDE = 2;

export interface Goal {
  asin: string;
  /** The goal product's title (WebShop `name`). */
  name: string;
  query: string;
  productCategory: string;
  nouns: string[];
  attributes: string[];
  /** option name -> wanted value */
  options: Record<string, string>;
  priceUpper: number;
  instruction: string;
}

export interface WebshopTask {
  info: TaskInfo;
  goal: Goal;
}

const PRICE_RANGE = Array.from({ length: 99 }, (_, i) => 10 * (i + 1));
const LEADS = ['i need', 'i am looking for', 'i want to buy', 'find me'] as const;

function joinAnd(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export function isPlural(type: string): boolean {
  return /s$/.test(type);
}

/** The instruction text; policies parse the same grammar (server/policies/webshop/goal.ts). */
export function instructionText(
  lead: string,
  product: Pick<Product, 'query'>,
  attributes: string[],
  options: Record<string, string>,
  priceUpper: number | null,
): string {
  const plural = isPlural(product.query);
  const article = plural ? '' : /^[aeiou]/.test(product.query) ? 'an ' : 'a ';
  const opts = Object.entries(options).map(([name, value]) => `${name} ${value}`);
  return (
    `${lead} ${article}${product.query} that ${plural ? 'are' : 'is'} ${joinAnd(attributes)}` +
    (opts.length > 0 ? `, with ${opts.join(' and ')}` : '') +
    (priceUpper !== null ? `, and price lower than ${priceUpper.toFixed(2)} dollars` : '')
  );
}

function makeGoal(rng: () => number, product: Product): Goal {
  const attributes = sample(rng, product.attributes, 1 + Math.floor(rng() * 3)).sort(
    (a, b) => product.attributes.indexOf(a) - product.attributes.indexOf(b),
  );
  const options: Record<string, string> = {};
  for (const option of product.options) {
    if (rng() < 0.85) options[option.name] = pick(rng, option.values);
  }
  const range = PRICE_RANGE.filter((p) => p > product.price).slice(0, 4);
  const priceUpper =
    range.length >= 2 ? Math.max(...sample(rng, range, 2)) : Number.POSITIVE_INFINITY;
  const instruction = instructionText(
    pick(rng, LEADS),
    product,
    attributes,
    options,
    Number.isFinite(priceUpper) ? priceUpper : null,
  );
  return {
    asin: product.asin,
    name: product.title,
    query: product.query,
    productCategory: product.productCategory,
    nouns: product.nouns,
    attributes,
    options,
    priceUpper: Number.isFinite(priceUpper) ? priceUpper : 1_000_000,
    instruction,
  };
}

function splitOf(id: string): (typeof SPLITS)[number] {
  const bucket = fnv1a(id) % 10;
  return bucket < 2 ? 'test' : bucket < 3 ? 'eval' : 'train';
}

let cached: { list: WebshopTask[]; byId: Map<string, WebshopTask> } | undefined;

export function allTasks(): WebshopTask[] {
  if (cached) return cached.list;
  const rng = createRng(TASK_SEED);
  const list: WebshopTask[] = [];
  catalogue().products.forEach((product, index) => {
    if (index % GOAL_STRIDE !== 0) return;
    const goal = makeGoal(rng, product);
    const id = `ws-${String(list.length).padStart(4, '0')}`;
    const optionCount = Object.keys(goal.options).length;
    list.push({
      goal,
      info: {
        id,
        type: product.category,
        goal: goal.instruction,
        split: splitOf(id),
        difficulty: Math.round(((goal.attributes.length + optionCount - 1) / 4) * 100) / 100,
        meta: {
          productType: goal.query,
          attributes: goal.attributes,
          options: goal.options,
          priceUpper: goal.priceUpper,
        },
      },
    });
  });
  cached = { list, byId: new Map(list.map((t) => [t.info.id, t])) };
  return list;
}

export function findTask(id: string): WebshopTask | undefined {
  allTasks();
  return cached?.byId.get(id);
}

export function listWebshopTasks(filter?: TaskFilter): TaskInfo[] {
  return filterTasks(
    allTasks().map((t) => t.info),
    filter,
  );
}
