import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compare, eq, format, gt, inc, lt, maxSatisfying, parse, satisfies } from '../src/index.js';

test('format round-trips', () => {
  assert.equal(format(parse('3.4.5-beta.2')), '3.4.5-beta.2');
  assert.equal(format(parse(' 0.0.1 ')), '0.0.1');
});

test('parse rejects letters and empty parts', () => {
  assert.throws(() => parse('1.x.3'), TypeError);
  assert.throws(() => parse('1..3'), TypeError);
  assert.throws(() => parse('1.2.3.4'), TypeError);
});

test('zero is not a leading zero', () => {
  assert.deepEqual(parse('0.10.0'), { major: 0, minor: 10, patch: 0, prerelease: [] });
});

test('compare patch and equality', () => {
  assert.equal(compare('1.2.10', '1.2.9'), 1);
  assert.equal(eq('1.2.3', 'v1.2.3'), true);
  assert.equal(gt('1.2.3', '1.2.3'), false);
});

test('prerelease ordering follows semver.org', () => {
  const order = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
  ];
  for (let i = 0; i + 1 < order.length; i++) {
    assert.equal(lt(order[i], order[i + 1]), true, `${order[i]} < ${order[i + 1]}`);
    assert.equal(gt(order[i + 1], order[i]), true, `${order[i + 1]} > ${order[i]}`);
  }
});

test('caret below 1.0.0 keeps the minor, and 0.0.x the patch', () => {
  assert.equal(satisfies('0.2.5', '^0.2.3'), true);
  assert.equal(satisfies('0.3.0', '^0.2.3'), false);
  assert.equal(satisfies('0.0.3', '^0.0.3'), true);
  assert.equal(satisfies('0.0.4', '^0.0.3'), false);
});

test('tilde lower bound', () => {
  assert.equal(satisfies('1.2.2', '~1.2.3'), false);
  assert.equal(satisfies('1.2.3', '~1.2.3'), true);
});

test('strict and equal comparators', () => {
  assert.equal(satisfies('1.0.0', '>1.0.0'), false);
  assert.equal(satisfies('1.0.1', '>1.0.0'), true);
  assert.equal(satisfies('1.0.0', '<=1.0.0'), true);
  assert.equal(satisfies('1.0.0', '<1.0.0'), false);
  assert.equal(satisfies('1.0.0', '=1.0.0'), true);
  assert.equal(satisfies('1.0.0', '1.0.1'), false);
});

test('inc major and a prerelease patch', () => {
  assert.equal(inc('1.2.3', 'major'), '2.0.0');
  assert.equal(inc('1.2.3-rc.1', 'patch'), '1.2.3');
  assert.throws(() => inc('1.2.3', 'huge'), RangeError);
});

test('maxSatisfying with no match', () => {
  assert.equal(maxSatisfying(['1.0.0'], '^2.0.0'), null);
  assert.equal(maxSatisfying(['2.1.0', '2.0.5', '2.3.0-rc.1'], '~2.0.0'), '2.0.5');
});
