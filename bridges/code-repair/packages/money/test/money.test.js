import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  add,
  allocate,
  compare,
  format,
  multiply,
  parseAmount,
  roundHalfEven,
  subtract,
} from '../src/index.js';

test('parseAmount reads dollars and cents', () => {
  assert.deepEqual(parseAmount('12.34'), { cents: 1234, currency: 'USD' });
  assert.deepEqual(parseAmount('5'), { cents: 500, currency: 'USD' });
  assert.deepEqual(parseAmount('0.5'), { cents: 50, currency: 'USD' });
});

test('parseAmount rejects bad input', () => {
  assert.throws(() => parseAmount('1.234'), TypeError);
  assert.throws(() => parseAmount('1a'), TypeError);
});

test('add and subtract', () => {
  const a = parseAmount('1.50');
  const b = parseAmount('0.75');
  assert.equal(add(a, b).cents, 225);
  assert.equal(subtract(a, b).cents, 75);
});

test('mixing currencies is an error', () => {
  assert.throws(() => add(parseAmount('1', 'USD'), parseAmount('1', 'EUR')), TypeError);
});

test('roundHalfEven rounds ties to even', () => {
  assert.equal(roundHalfEven(2.5), 2);
  assert.equal(roundHalfEven(3.5), 4);
  assert.equal(roundHalfEven(2.4), 2);
});

test('multiply rounds to cents', () => {
  assert.equal(multiply(parseAmount('10.00'), 0.333).cents, 333);
});

test('allocate splits without losing cents', () => {
  const parts = allocate(parseAmount('1.00'), [1, 1, 1]);
  assert.deepEqual(
    parts.map((p) => p.cents),
    [34, 33, 33],
  );
});

test('format groups thousands', () => {
  assert.equal(format(parseAmount('1234567.8')), '$1,234,567.80');
});

test('compare amounts', () => {
  assert.equal(compare(parseAmount('1'), parseAmount('2')), -1);
  assert.equal(compare(parseAmount('2'), parseAmount('2')), 0);
});
