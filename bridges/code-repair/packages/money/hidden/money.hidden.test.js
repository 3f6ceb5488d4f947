import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  allocate,
  compare,
  format,
  fromCents,
  multiply,
  parseAmount,
  percent,
  roundHalfEven,
  subtract,
  sum,
} from '../src/index.js';

test('negative amounts parse and format', () => {
  assert.equal(parseAmount('-3.05').cents, -305);
  assert.equal(format(fromCents(-305)), '-$3.05');
});

test('fromCents rejects fractions of a cent', () => {
  assert.throws(() => fromCents(1.5), TypeError);
});

test('parseAmount rejects an empty whole part', () => {
  assert.throws(() => parseAmount('.50'), TypeError);
  assert.deepEqual(parseAmount(' 7.1 ', 'EUR'), { cents: 710, currency: 'EUR' });
});

test('roundHalfEven above and below the tie', () => {
  assert.equal(roundHalfEven(2.6), 3);
  assert.equal(roundHalfEven(-0.5) + 0, 0);
  assert.equal(roundHalfEven(-1.5), -2);
  assert.equal(roundHalfEven(7), 7);
  assert.equal(roundHalfEven(1.5), 2);
});

test('multiply and percent', () => {
  assert.equal(multiply(fromCents(250), 0.5).cents, 125);
  assert.equal(multiply(fromCents(5), 0.5).cents, 2);
  assert.equal(percent(fromCents(2000), 15).cents, 300);
});

test('allocate by uneven ratios keeps the total', () => {
  const parts = allocate(fromCents(1000), [70, 20, 10]);
  assert.deepEqual(
    parts.map((p) => p.cents),
    [700, 200, 100],
  );
  const odd = allocate(fromCents(5), [1, 1]);
  assert.deepEqual(
    odd.map((p) => p.cents),
    [3, 2],
  );
});

test('allocate rejects empty or zero ratios', () => {
  assert.throws(() => allocate(fromCents(100), []), RangeError);
  assert.throws(() => allocate(fromCents(100), [0, 0]), RangeError);
});

test('sum of several amounts and of none', () => {
  assert.equal(sum([fromCents(1), fromCents(2), fromCents(3)]).cents, 6);
  assert.equal(sum([]).cents, 0);
});

test('subtract below zero', () => {
  assert.equal(subtract(fromCents(100), fromCents(250)).cents, -150);
});

test('format small amounts, custom separators and symbols', () => {
  assert.equal(format(fromCents(7)), '$0.07');
  assert.equal(format(fromCents(100000)), '$1,000.00');
  assert.equal(format(fromCents(99999)), '$999.99');
  assert.equal(format(fromCents(123456789), { thousands: ' ', symbol: '€' }), '€1 234 567.89');
});

test('compare greater', () => {
  assert.equal(compare(fromCents(5), fromCents(3)), 1);
  assert.throws(() => compare(fromCents(1, 'USD'), fromCents(1, 'GBP')), TypeError);
});
