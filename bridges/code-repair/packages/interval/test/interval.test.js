import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  contains,
  daysBetween,
  gaps,
  intersection,
  isEmpty,
  length,
  makeInterval,
  merge,
  overlaps,
  split,
} from '../src/index.js';

test('makeInterval keeps start and end', () => {
  assert.deepEqual(makeInterval(2, 5), { start: 2, end: 5 });
});

test('makeInterval rejects an end before the start', () => {
  assert.throws(() => makeInterval(5, 2), RangeError);
});

test('length of an interval', () => {
  assert.equal(length({ start: 3, end: 10 }), 7);
});

test('an interval with equal ends is empty', () => {
  assert.equal(isEmpty({ start: 4, end: 4 }), true);
  assert.equal(isEmpty({ start: 4, end: 5 }), false);
});

test('contains includes the start and excludes the end', () => {
  const i = { start: 0, end: 10 };
  assert.equal(contains(i, 0), true);
  assert.equal(contains(i, 9), true);
  assert.equal(contains(i, 10), false);
});

test('touching intervals do not overlap', () => {
  assert.equal(overlaps({ start: 0, end: 5 }, { start: 5, end: 9 }), false);
  assert.equal(overlaps({ start: 0, end: 6 }, { start: 5, end: 9 }), true);
});

test('intersection of overlapping intervals', () => {
  assert.deepEqual(intersection({ start: 0, end: 6 }, { start: 4, end: 9 }), { start: 4, end: 6 });
  assert.equal(intersection({ start: 0, end: 4 }, { start: 4, end: 9 }), null);
});

test('merge joins overlapping and touching intervals', () => {
  assert.deepEqual(
    merge([
      { start: 5, end: 8 },
      { start: 0, end: 3 },
      { start: 3, end: 4 },
      { start: 7, end: 10 },
    ]),
    [
      { start: 0, end: 4 },
      { start: 5, end: 10 },
    ],
  );
});

test('merge does not modify its input', () => {
  const input = [
    { start: 0, end: 3 },
    { start: 2, end: 5 },
  ];
  merge(input);
  assert.deepEqual(input[0], { start: 0, end: 3 });
});

test('gaps lists the uncovered parts', () => {
  assert.deepEqual(gaps([{ start: 2, end: 4 }], { start: 0, end: 10 }), [
    { start: 0, end: 2 },
    { start: 4, end: 10 },
  ]);
});

test('split into equal parts', () => {
  assert.deepEqual(split({ start: 0, end: 9 }, 3), [
    { start: 0, end: 3 },
    { start: 3, end: 6 },
    { start: 6, end: 9 },
  ]);
});

test('daysBetween counts whole days', () => {
  const day = 86400000;
  assert.equal(daysBetween(0, 3 * day + 5), 3);
});
