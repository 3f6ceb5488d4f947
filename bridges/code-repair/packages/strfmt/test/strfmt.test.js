import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  center,
  countOccurrences,
  format,
  padLeft,
  padRight,
  slugify,
  titleCase,
  truncate,
  wrap,
} from '../src/index.js';

test('format fills positional placeholders', () => {
  assert.equal(format('{0} + {1} = {2}', 1, 2, 3), '1 + 2 = 3');
});

test('format fills named placeholders', () => {
  assert.equal(format('Hello, {name}!', { name: 'Ada' }), 'Hello, Ada!');
});

test('format keeps escaped braces', () => {
  assert.equal(format('{{0}} is {0}', 'x'), '{0} is x');
});

test('format reports a missing value', () => {
  assert.throws(() => format('{3}', 'a'), RangeError);
});

test('padLeft pads to the width', () => {
  assert.equal(padLeft('7', 3, '0'), '007');
  assert.equal(padLeft('1234', 3, '0'), '1234');
});

test('padRight pads to the width', () => {
  assert.equal(padRight('ab', 4), 'ab  ');
});

test('center puts the extra space on the right', () => {
  assert.equal(center('ab', 5, '*'), '*ab**');
});

test('truncate shortens long text with an ellipsis', () => {
  assert.equal(truncate('hello world', 8), 'hello...');
  assert.equal(truncate('short', 8), 'short');
});

test('titleCase keeps small words lower inside a title', () => {
  assert.equal(titleCase('the lord of the rings'), 'The Lord of the Rings');
});

test('slugify joins words with dashes', () => {
  assert.equal(slugify('  Hello, World! 2024 '), 'hello-world-2024');
});

test('wrap breaks lines at the width', () => {
  assert.deepEqual(wrap('the quick brown fox jumps', 10), ['the quick', 'brown fox', 'jumps']);
});

test('countOccurrences counts non-overlapping matches', () => {
  assert.equal(countOccurrences('aaaa', 'aa'), 2);
});
