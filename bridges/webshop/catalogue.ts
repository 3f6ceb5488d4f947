// The generated, seeded product catalogue (1,200 products): same seed, same catalogue on every
// machine. Fields follow WebShop's product records (asin, Title, BulletPoints, Description,
// Attributes, customization options, pricing, product_category, query).
import {
  BENEFITS,
  CATEGORIES,
  type CategoryData,
  type ProductType,
  REVIEW_OPENERS,
} from './data.ts';
import { createRng, pick, sample } from './rng.ts';
import { titleCase, tokens } from './text.ts';

export const CATALOGUE_SEED = 20220701;
export const PRODUCTS_PER_TYPE = 40;

export interface ProductOption {
  name: string;
  values: string[];
}

export interface Review {
  rating: number;
  text: string;
}

export interface Product {
  asin: string;
  category: CategoryData['id'];
  /** WebShop's `query`: the search that found the product (here its product-type phrase). */
  query: string;
  /** 'Grocery & Gourmet Food › Snacks › Snack Packs'. */
  productCategory: string;
  title: string;
  brand: string;
  attributes: string[];
  options: ProductOption[];
  price: number;
  /** null shows as "N.A." as in WebShop. */
  rating: number | null;
  description: string;
  features: string[];
  reviews: Review[];
  /** Nouns of the title (type nouns and the brand, which spaCy tags PROPN): the type reward's input. */
  nouns: string[];
}

export interface Catalogue {
  products: Product[];
  byAsin: Map<string, Product>;
  types: { category: CategoryData; type: ProductType }[];
}

const ASIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function joinAnd(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function makeProduct(
  rng: () => number,
  category: CategoryData,
  type: ProductType,
  asin: string,
): Product {
  const brand = pick(rng, category.brands);
  const attrCount = 3 + Math.floor(rng() * Math.min(3, type.attributes.length - 2));
  const attributes = sample(rng, type.attributes, attrCount).sort(
    (a, b) => type.attributes.indexOf(a) - type.attributes.indexOf(b),
  );
  const inTitle = sample(rng, attributes, Math.floor(rng() * 3));
  const descriptor = rng() < 0.6 ? `${pick(rng, type.descriptors)} ` : '';
  const title = `${brand} ${descriptor}${inTitle.map(titleCase).join(' ')}${inTitle.length > 0 ? ' ' : ''}${titleCase(type.type)}`;
  // About one product in six has no customisation options at all (as many WebShop products).
  const hasOptions = rng() >= 1 / 6;
  const options: ProductOption[] = [];
  if (hasOptions) {
    for (const [name, all] of Object.entries(type.options)) {
      if (options.length > 0 && rng() < 0.25) continue;
      const count = Math.min(all.length, 2 + Math.floor(rng() * (all.length - 1)));
      const values = sample(rng, all, count).sort((a, b) => all.indexOf(a) - all.indexOf(b));
      options.push({ name, values });
    }
  }
  const [lo, hi] = type.price;
  const price = Math.floor(lo + rng() * (hi - lo)) + (rng() < 0.7 ? 0.99 : 0.49);
  const rating = rng() < 0.2 ? null : 3 + Math.floor(rng() * 5) / 2;
  const features = attributes.map((a) => `${capitalise(a)}: ${pick(rng, BENEFITS)}`);
  features.push(`Sold by ${brand}: ${pick(rng, BENEFITS)}`);
  const description =
    `${title}. This ${type.type} from ${brand} is ${joinAnd(attributes)}. ` +
    `${capitalise(pick(rng, BENEFITS))}.`;
  const reviews = Array.from({ length: Math.floor(rng() * 4) }, () => {
    const stars = 1 + Math.floor(rng() * 5);
    return {
      rating: stars,
      text: `${pick(rng, REVIEW_OPENERS)} ${capitalise(pick(rng, BENEFITS))}.`,
    };
  });
  const nouns = [...new Set([...tokens(brand), ...type.nouns])];
  return {
    asin,
    category: category.id,
    query: type.type,
    productCategory: [category.name, ...type.path].join(' › '),
    title,
    brand,
    attributes,
    options,
    price: Math.round(price * 100) / 100,
    rating,
    description,
    features,
    reviews,
    nouns,
  };
}

let cached: Catalogue | undefined;

export function catalogue(): Catalogue {
  if (cached) return cached;
  const rng = createRng(CATALOGUE_SEED);
  const products: Product[] = [];
  const asins = new Set<string>();
  const types: Catalogue['types'] = [];
  for (const category of CATEGORIES) {
    for (const type of category.types) {
      types.push({ category, type });
      for (let i = 0; i < PRODUCTS_PER_TYPE; i++) {
        let asin = '';
        do {
          asin = `B0${Array.from({ length: 8 }, () => pick(rng, [...ASIN_CHARS])).join('')}`;
        } while (asins.has(asin));
        asins.add(asin);
        products.push(makeProduct(rng, category, type, asin));
      }
    }
  }
  cached = { products, byAsin: new Map(products.map((p) => [p.asin, p])), types };
  return cached;
}

export function findProduct(asin: string): Product | undefined {
  return catalogue().byAsin.get(asin.toUpperCase());
}
