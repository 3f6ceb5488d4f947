import { describe, expect, it } from 'vitest';
import { allTasks } from '../../../bridges/webshop/index.ts';
import { chunksOf, parseListings } from './agent.ts';
import { parseGoal } from './goal.ts';

describe('webshop goal parsing', () => {
  it('recovers type, attributes, options and price cap of every instruction', () => {
    for (const { goal } of allTasks()) {
      const parsed = parseGoal(goal.instruction);
      expect(parsed.productType, goal.instruction).toBe(goal.query);
      expect(parsed.attributes).toEqual(goal.attributes);
      expect(parsed.options).toEqual(
        Object.entries(goal.options).map(([name, value]) => ({ name, value })),
      );
      expect(parsed.priceUpper).toBe(goal.priceUpper);
    }
  });

  it('falls back to the whole request for free text', () => {
    expect(parseGoal('Buy me something nice, and price lower than 20.00 dollars')).toMatchObject({
      productType: 'buy me something nice',
      attributes: [],
      priceUpper: 20,
    });
  });
});

describe('page reading', () => {
  const simple =
    'WebShop [SEP] Instruction: [SEP] i need a t-shirt that is cotton [SEP] Back to Search [SEP] Page 1 (Total results: 2) [SEP] B0AAAAAAAA [SEP] Everwear Cotton T-Shirt [SEP] $12.99 [SEP] B0BBBBBBBB [SEP] Coastline T-Shirt [SEP] $9.49';
  it('drops the instruction header and reads listings in simple and text mode', () => {
    const chunks = chunksOf(simple);
    expect(chunks[0]).toBe('Back to Search');
    expect(parseListings(chunks)).toEqual([
      { asin: 'b0aaaaaaaa', title: 'Everwear Cotton T-Shirt', price: 12.99 },
      { asin: 'b0bbbbbbbb', title: 'Coastline T-Shirt', price: 9.49 },
    ]);
    const text = simple
      .split(' [SEP] ')
      .map((c) => (/^B0|^Back/.test(c) ? `[button] ${c} [button_]` : c))
      .join('\n');
    expect(chunksOf(text)).toEqual(chunks);
  });
});
