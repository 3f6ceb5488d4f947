// The catalogue, tasks, search and reward without a browser.
import { describe, expect, it } from 'vitest';
import { catalogue, findProduct } from './catalogue.ts';
import { CATEGORIES } from './data.ts';
import { attributeReward, getReward, optionReward, typeReward } from './reward.ts';
import { MAX_RESULTS, search } from './search.ts';
import { allTasks, findTask, instructionText, SPLITS } from './tasks.ts';
import { normalizeColor, tokenSetRatio } from './text.ts';

describe('text matching (thefuzz / rapidfuzz token_set_ratio)', () => {
  it('matches the reference values', () => {
    // Values computed with rapidfuzz.fuzz.token_set_ratio.
    expect(tokenSetRatio('gluten free', 'Gluten-Free')).toBe(100);
    expect(tokenSetRatio('cotton', 'egyptian cotton')).toBe(100);
    expect(tokenSetRatio('12 pack', '2 pack')).toBeCloseTo(92.3077, 3);
    expect(tokenSetRatio('fuzzy was a bear', 'fuzzy fuzzy was a bear')).toBe(100);
    expect(tokenSetRatio('low sugar', 'sugar free')).toBeLessThan(85);
    expect(tokenSetRatio('', 'x')).toBe(0);
  });

  it("normalises colours as WebShop's normalize_color", () => {
    expect(normalizeColor('navy blue')).toBe('blue');
    expect(normalizeColor('heather gray')).toBe('gray');
    expect(normalizeColor('12 pack')).toBe('12 pack');
  });
});

describe('catalogue', () => {
  const { products } = catalogue();

  it('has at least 1,000 products with unique ASINs, deterministically', () => {
    expect(products.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(products.map((p) => p.asin)).size).toBe(products.length);
    expect(products[0]).toMatchInlineSnapshot(`
      {
        "asin": "B0HU9M7R3R",
        "attributes": [
          "sulfate free",
          "cruelty free",
          "color treated hair",
          "travel size",
        ],
        "brand": "Pure Haven",
        "category": "beauty",
        "description": "Pure Haven Salon Grade Cruelty Free Sulfate Free Shampoo. This shampoo from Pure Haven is sulfate free, cruelty free, color treated hair and travel size. A reliable choice at home or on the go.",
        "features": [
          "Sulfate free: designed for everyday use",
          "Cruelty free: built for comfort and convenience",
          "Color treated hair: made to meet high quality standards",
          "Travel size: checked by our quality team",
          "Sold by Pure Haven: thoughtfully designed down to the details",
        ],
        "nouns": [
          "pure",
          "haven",
          "shampoo",
        ],
        "options": [],
        "price": 14.99,
        "productCategory": "Beauty & Personal Care › Hair Care › Shampoos",
        "query": "shampoo",
        "rating": null,
        "reviews": [
          {
            "rating": 3,
            "text": "Decent quality overall. Built for comfort and convenience.",
          },
          {
            "rating": 5,
            "text": "Would buy again. A favourite with our customers.",
          },
        ],
        "title": "Pure Haven Salon Grade Cruelty Free Sulfate Free Shampoo",
      }
    `);
    expect(findProduct(products[5]!.asin.toLowerCase())).toBe(products[5]);
  });

  it('never credits a product with an attribute of its type that it does not have', () => {
    for (const p of products) {
      const type = CATEGORIES.flatMap((c) => c.types).find((t) => t.type === p.query)!;
      for (const attr of type.attributes) {
        const goal = { ...findTask('ws-0000')!.goal, attributes: [attr] };
        const { numAttrMatches } = attributeReward(p, goal);
        expect(numAttrMatches, `${p.asin} ${attr}`).toBe(p.attributes.includes(attr) ? 1 : 0);
      }
    }
  });

  it('keeps option values of a dimension apart (no fuzzy match, no colour collapse)', () => {
    for (const type of CATEGORIES.flatMap((c) => c.types)) {
      const all = Object.values(type.options).flat();
      expect(new Set(all).size, type.type).toBe(all.length);
      for (const values of Object.values(type.options)) {
        for (const a of values) {
          for (const b of values) {
            if (a === b) continue;
            expect(optionReward([a], [b]).numOptionMatches, `${type.type}: ${a} vs ${b}`).toBe(0);
          }
        }
      }
    }
  });
});

describe('tasks', () => {
  const tasks = allTasks();

  it('has hundreds of tasks over three splits, with stable ids', () => {
    expect(tasks.length).toBe(600);
    for (const split of SPLITS)
      expect(tasks.filter((t) => t.info.split === split).length).toBeGreaterThan(50);
    expect(new Set(tasks.map((t) => t.info.id)).size).toBe(tasks.length);
    expect(findTask('ws-0000')?.info.goal).toBe(tasks[0]?.info.goal);
    expect(tasks.filter((t) => Object.keys(t.goal.options).length === 0).length).toBeGreaterThan(
      50,
    );
  });

  it('reads like WebShop instructions and names every requirement', () => {
    for (const { goal } of tasks) {
      expect(goal.instruction).toContain(goal.query);
      for (const a of goal.attributes) expect(goal.instruction).toContain(a);
      for (const v of Object.values(goal.options)) expect(goal.instruction).toContain(v);
      expect(goal.instruction).toMatch(/, and price lower than \d+\.00 dollars$/);
    }
    expect(
      instructionText('i need', { query: 'snack pack' }, ['gluten free'], { size: '12 pack' }, 30),
    ).toBe(
      'i need a snack pack that is gluten free, with size 12 pack, and price lower than 30.00 dollars',
    );
  });

  it('gives the goal product with the goal options reward 1', () => {
    for (const { goal } of tasks) {
      const product = findProduct(goal.asin)!;
      const r = getReward(product, goal, product.price, goal.options);
      expect(r.reward, goal.instruction).toBe(1);
    }
  });
});

describe('reward (WebShop get_reward)', () => {
  const task = allTasks().find(
    (t) => Object.keys(t.goal.options).length === 2 && t.goal.attributes.length === 2,
  )!;
  const goal = task.goal;
  const product = findProduct(goal.asin)!;

  it('scores missing options, a price over the cap and a wrong type as WebShop does', () => {
    const denominator = goal.attributes.length + 2 + 1;
    expect(getReward(product, goal, product.price, {}).reward).toBeCloseTo(
      (goal.attributes.length + 1) / denominator,
      5,
    );
    const [name, value] = Object.entries(goal.options)[0]!;
    expect(getReward(product, goal, product.price, { [name]: value }).reward).toBeCloseTo(
      (goal.attributes.length + 2) / denominator,
      5,
    );
    const over = getReward(product, goal, goal.priceUpper + 0.01, goal.options);
    expect(over.rPrice).toBe(false);
    expect(over.reward).toBeCloseTo((denominator - 1) / denominator, 5);
    const other = catalogue().products.find(
      (p) => p.category !== product.category && !p.nouns.some((n) => product.nouns.includes(n)),
    )!;
    expect(typeReward(other, goal)).toMatchObject({ rType: 0, titleScore: 0, queryMatch: false });
    expect(getReward(other, goal, other.price, goal.options).reward).toBe(0);
  });

  it('gives a same-type product of another brand r_type 1 through the query match', () => {
    const sibling = catalogue().products.find(
      (p) => p.query === product.query && p.brand !== product.brand,
    )!;
    const t = typeReward(sibling, goal);
    expect(t.queryMatch).toBe(true);
    expect(t.rType).toBe(1);
    expect(t.titleScore).toBeLessThan(1);
  });
});

describe('search (BM25)', () => {
  it('finds the goal product type first for a typed query, at most 50 results', () => {
    const results = search('gluten free snack pack');
    expect(results.length).toBe(MAX_RESULTS);
    expect(results.slice(0, 10).every((p) => p.query === 'snack pack')).toBe(true);
    expect(results[0]!.attributes).toContain('gluten free');
    expect(search('')).toEqual([]);
    expect(search('zzzz qqqq')).toEqual([]);
  });

  it('ranks the goal product in the top 50 for its type and attributes', () => {
    let found = 0;
    const tasks = allTasks();
    for (const { goal } of tasks) {
      const results = search(`${goal.query} ${goal.attributes.join(' ')}`);
      if (results.some((p) => p.asin === goal.asin)) found += 1;
    }
    expect(found / tasks.length).toBeGreaterThan(0.9);
  });
});
