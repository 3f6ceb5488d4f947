import assert from 'node:assert/strict';
import { test } from 'node:test';
import { column, parse, parseRows, stringify, toNumbers } from '../src/index.js';

test('parseRows splits simple rows', () => {
  assert.deepEqual(parseRows('a,b\n1,2\n'), [
    ['a', 'b'],
    ['1', '2'],
  ]);
});

test('quoted fields keep separators', () => {
  assert.deepEqual(parseRows('"x,y",z'), [['x,y', 'z']]);
});

test('doubled quotes inside quotes are one quote', () => {
  assert.deepEqual(parseRows('"say ""hi""",1'), [['say "hi"', '1']]);
});

test('parse maps rows to the header', () => {
  assert.deepEqual(parse('name,age\nAda,36\nAlan,41\n'), [
    { name: 'Ada', age: '36' },
    { name: 'Alan', age: '41' },
  ]);
});

test('parse in strict mode rejects short rows', () => {
  assert.throws(() => parse('a,b\n1\n', { strict: true }), RangeError);
});

test('stringify quotes when needed', () => {
  assert.equal(stringify([{ a: 'x,y', b: 2 }], ['a', 'b']), 'a,b\n"x,y",2\n');
});

test('column and toNumbers', () => {
  const records = parse('v\n1\n 2 \n\n', {});
  assert.deepEqual(toNumbers(column(records, 'v')), [1, 2, null]);
});
