import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compare, gt, inc, lt, maxSatisfying, parse, satisfies, sort } from '../src/index.js';

test('parse reads the three numbers', () => {
  assert.deepEqual(parse('1.2.3'), { major: 1, minor: 2, patch: 3, prerelease: [] });
});

test('parse reads a prerelease and a v prefix', () => {
  assert.deepEqual(parse('v2.0.0-rc.1'), { major: 2, minor: 0, patch: 0, prerelease: ['rc', '1'] });
});

test('parse rejects bad versions', () => {
  assert.throws(() => parse('1.2'), TypeError);
  assert.throws(() => parse('01.2.3'), TypeError);
});

test('compare orders by major, minor, patch', () => {
  assert.equal(compare('1.2.3', '1.10.0'), -1);
  assert.equal(compare('2.0.0', '1.99.99'), 1);
  assert.equal(compare('1.2.3', '1.2.3'), 0);
});

test('a prerelease comes before its release', () => {
  assert.equal(lt('1.0.0-alpha', '1.0.0'), true);
});

test('sort ascending', () => {
  assert.deepEqual(sort(['1.10.0', '1.2.0', '1.2.0-beta']), ['1.2.0-beta', '1.2.0', '1.10.0']);
});

test('caret ranges keep the major', () => {
  assert.equal(satisfies('1.9.0', '^1.2.3'), true);
  assert.equal(satisfies('2.0.0', '^1.2.3'), false);
  assert.equal(satisfies('1.2.2', '^1.2.3'), false);
});

test('tilde ranges keep the minor', () => {
  assert.equal(satisfies('1.2.9', '~1.2.3'), true);
  assert.equal(satisfies('1.3.0', '~1.2.3'), false);
});

test('comparator sets', () => {
  assert.equal(satisfies('1.5.0', '>=1.2.0 <2.0.0'), true);
  assert.equal(satisfies('2.0.0', '>=1.2.0 <2.0.0'), false);
});

test('inc bumps and resets', () => {
  assert.equal(inc('1.2.3', 'minor'), '1.3.0');
  assert.equal(inc('1.2.3', 'patch'), '1.2.4');
});

test('gt and maxSatisfying', () => {
  assert.equal(gt('1.0.1', '1.0.0'), true);
  assert.equal(maxSatisfying(['1.2.0', '1.4.1', '2.0.0'], '^1.0.0'), '1.4.1');
});
