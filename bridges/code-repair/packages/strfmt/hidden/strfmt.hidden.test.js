import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  capitalize,
  center,
  countOccurrences,
  format,
  padLeft,
  padRight,
  repeatJoin,
  slugify,
  titleCase,
  truncate,
  wrap,
} from '../src/index.js';

test('format mixes text and several placeholders', () => {
  assert.equal(format('[{a}-{b}]', { a: 1, b: 'z' }), '[1-z]');
  assert.equal(format('{1}{0}', 'x', 'y'), 'yx');
});

test('format rejects an unclosed brace', () => {
  assert.throws(() => format('oops {0', 1), SyntaxError);
});

test('format keeps a closing escaped brace', () => {
  assert.equal(format('{0}}}', 5), '5}');
});

test('padLeft with default fill and exact width', () => {
  assert.equal(padLeft('ab', 2), 'ab');
  assert.equal(padLeft(5, 2), ' 5');
  assert.throws(() => padLeft('a', 3, 'xy'), RangeError);
});

test('padRight leaves long text alone', () => {
  assert.equal(padRight('abcdef', 3), 'abcdef');
  assert.equal(padRight('a', 3, '.'), 'a..');
});

test('center with even padding and too-long text', () => {
  assert.equal(center('ab', 6), '  ab  ');
  assert.equal(center('abcdef', 3), 'abcdef');
});

test('truncate at exactly the limit and very small limits', () => {
  assert.equal(truncate('abcdef', 6), 'abcdef');
  assert.equal(truncate('abcdef', 5), 'ab...');
  assert.equal(truncate('abcdef', 2), '..');
  assert.equal(truncate('abcdef', 4, '~'), 'abc~');
});

test('capitalize lowers the rest', () => {
  assert.equal(capitalize('hELLO'), 'Hello');
  assert.equal(capitalize(''), '');
});

test('titleCase capitalizes a small word at the start and end', () => {
  assert.equal(titleCase('of mice and men'), 'Of Mice and Men');
  assert.equal(titleCase('what it is on'), 'What It Is On');
});

test('slugify with a custom separator and symbols only', () => {
  assert.equal(slugify('A  B__C', '_'), 'a_b_c');
  assert.equal(slugify('!!!'), '');
});

test('wrap keeps a long word on its own line', () => {
  assert.deepEqual(wrap('a verylongword b', 4), ['a', 'verylongword', 'b']);
  assert.deepEqual(wrap('ab cd', 5), ['ab cd']);
  assert.throws(() => wrap('x', 0), RangeError);
});

test('repeatJoin repeats with a separator', () => {
  assert.equal(repeatJoin('ab', 3, '-'), 'ab-ab-ab');
  assert.equal(repeatJoin('ab', 0), '');
  assert.throws(() => repeatJoin('x', -1), RangeError);
});

test('countOccurrences of single characters and missing needles', () => {
  assert.equal(countOccurrences('banana', 'a'), 3);
  assert.equal(countOccurrences('banana', 'x'), 0);
  assert.equal(countOccurrences('banana', ''), 0);
});
