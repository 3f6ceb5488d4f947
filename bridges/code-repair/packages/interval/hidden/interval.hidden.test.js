import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addDays,
  contains,
  dayRange,
  daysBetween,
  gaps,
  intersection,
  isEmpty,
  length,
  makeInterval,
  merge,
  overlaps,
  shift,
  split,
  totalCovered,
} from '../src/index.js';

const day = 86400000;

test('makeInterval accepts an empty interval', () => {
  assert.deepEqual(makeInterval(3, 3), { start: 3, end: 3 });
});

test('makeInterval rejects non-numbers', () => {
  assert.throws(() => makeInterval('1', 2), TypeError);
});

test('length of an empty interval is zero', () => {
  assert.equal(length({ start: 4, end: 4 }), 0);
});

test('isEmpty is false for a positive length', () => {
  assert.equal(isEmpty({ start: -2, end: 1 }), false);
});

test('contains rejects points before the start', () => {
  assert.equal(contains({ start: 5, end: 8 }, 4), false);
  assert.equal(contains({ start: 5, end: 8 }, 5), true);
});

test('overlap is symmetric and nested intervals overlap', () => {
  const outer = { start: 0, end: 10 };
  const inner = { start: 3, end: 4 };
  assert.equal(overlaps(outer, inner), true);
  assert.equal(overlaps(inner, outer), true);
  assert.equal(overlaps({ start: 5, end: 9 }, { start: 0, end: 5 }), false);
});

test('intersection of nested intervals is the inner one', () => {
  assert.deepEqual(intersection({ start: 0, end: 10 }, { start: 2, end: 3 }), { start: 2, end: 3 });
});

test('merge keeps separate intervals apart and sorted', () => {
  assert.deepEqual(
    merge([
      { start: 8, end: 9 },
      { start: 1, end: 2 },
    ]),
    [
      { start: 1, end: 2 },
      { start: 8, end: 9 },
    ],
  );
});

test('merge keeps the longer end when one interval contains another', () => {
  assert.deepEqual(
    merge([
      { start: 0, end: 10 },
      { start: 2, end: 3 },
    ]),
    [{ start: 0, end: 10 }],
  );
});

test('gaps of full coverage is empty', () => {
  assert.deepEqual(gaps([{ start: -5, end: 50 }], { start: 0, end: 10 }), []);
});

test('gaps between several intervals', () => {
  assert.deepEqual(
    gaps(
      [
        { start: 1, end: 2 },
        { start: 4, end: 6 },
      ],
      { start: 0, end: 8 },
    ),
    [
      { start: 0, end: 1 },
      { start: 2, end: 4 },
      { start: 6, end: 8 },
    ],
  );
});

test('totalCovered counts overlaps once', () => {
  assert.equal(
    totalCovered([
      { start: 0, end: 4 },
      { start: 2, end: 6 },
      { start: 10, end: 11 },
    ]),
    7,
  );
});

test('shift moves both ends', () => {
  assert.deepEqual(shift({ start: 1, end: 3 }, 5), { start: 6, end: 8 });
});

test('split ends exactly at the end and rejects zero parts', () => {
  const parts = split({ start: 0, end: 10 }, 4);
  assert.equal(parts.length, 4);
  assert.equal(parts[3].end, 10);
  assert.equal(parts[1].start, 2.5);
  assert.throws(() => split({ start: 0, end: 1 }, 0), RangeError);
});

test('addDays and daysBetween agree', () => {
  assert.equal(addDays(1000, 2), 1000 + 2 * day);
  assert.equal(daysBetween(1000, addDays(1000, 7)), 7);
  assert.equal(daysBetween(0, day - 1), 0);
});

test('dayRange lists each day start, end excluded', () => {
  assert.deepEqual(dayRange(0, 3 * day), [0, day, 2 * day]);
  assert.deepEqual(dayRange(0, 0), []);
});
