import assert from 'node:assert/strict';
import { test } from 'node:test';
import { column, parse, parseRows, stringify, toNumbers } from '../src/index.js';

test('CRLF line endings', () => {
  assert.deepEqual(parseRows('a,b\r\n1,2\r\n'), [
    ['a', 'b'],
    ['1', '2'],
  ]);
});

test('a last row without a newline is kept', () => {
  assert.deepEqual(parseRows('a\nb'), [['a'], ['b']]);
});

test('empty fields are kept', () => {
  assert.deepEqual(parseRows(',x,\n'), [['', 'x', '']]);
});

test('quoted fields may hold line breaks', () => {
  assert.deepEqual(parseRows('"line1\nline2",b\n'), [['line1\nline2', 'b']]);
});

test('an unterminated quote is an error', () => {
  assert.throws(() => parseRows('"abc'), SyntaxError);
});

test('a custom separator', () => {
  assert.deepEqual(parse('a;b\n1;2', { separator: ';' }), [{ a: '1', b: '2' }]);
});

test('short rows are padded with empty strings when not strict', () => {
  assert.deepEqual(parse('a,b,c\n1\n'), [{ a: '1', b: '', c: '' }]);
});

test('skipEmpty drops blank lines', () => {
  assert.deepEqual(parse('a\n1\n\n2\n', { skipEmpty: true }), [{ a: '1' }, { a: '2' }]);
});

test('the header only gives no records; empty text gives none', () => {
  assert.deepEqual(parse('a,b\n'), []);
  assert.deepEqual(parse(''), []);
});

test('strict mode names the row', () => {
  assert.throws(() => parse('a,b\n1,2\n3\n', { strict: true }), /row 3 has 1 fields, expected 2/);
});

test('stringify escapes quotes and empty values, and round-trips', () => {
  const records = [{ a: 'he said "no"', b: null, c: 'line\nbreak' }];
  const text = stringify(records, ['a', 'b', 'c']);
  assert.equal(text, 'a,b,c\n"he said ""no""",,"line\nbreak"\n');
  assert.deepEqual(parse(text), [{ a: 'he said "no"', b: '', c: 'line\nbreak' }]);
});

test('stringify with a semicolon', () => {
  assert.equal(stringify([{ a: '1;2' }], ['a'], ';'), 'a\n"1;2"\n');
});

test('toNumbers rejects text and reads negatives', () => {
  assert.deepEqual(toNumbers(['-1.5', '0']), [-1.5, 0]);
  assert.throws(() => toNumbers(['abc']), TypeError);
  assert.deepEqual(column([{ x: 1 }, { x: 2 }], 'x'), [1, 2]);
});
