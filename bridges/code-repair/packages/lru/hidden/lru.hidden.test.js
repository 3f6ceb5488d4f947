import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedQueue, LRUCache } from '../src/index.js';

test('peek does not refresh an entry', () => {
  const cache = new LRUCache(2);
  cache.set('a', 1).set('b', 2);
  assert.equal(cache.peek('a'), 1);
  cache.set('c', 3);
  assert.equal(cache.has('a'), false);
  assert.equal(cache.has('b'), true);
});

test('setting an existing key refreshes it', () => {
  const cache = new LRUCache(2);
  cache.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
  assert.deepEqual(cache.keys(), ['c', 'a']);
});

test('a cache of one keeps the last key', () => {
  const cache = new LRUCache(1);
  cache.set('a', 1).set('b', 2);
  assert.deepEqual(cache.keys(), ['b']);
  assert.equal(cache.size, 1);
});

test('delete removes an entry', () => {
  const cache = new LRUCache(2);
  cache.set('a', 1);
  assert.equal(cache.delete('a'), true);
  assert.equal(cache.delete('a'), false);
  assert.equal(cache.size, 0);
});

test('resize evicts the oldest entries', () => {
  const cache = new LRUCache(4);
  cache.set('a', 1).set('b', 2).set('c', 3).set('d', 4);
  cache.resize(2);
  assert.deepEqual(cache.keys(), ['d', 'c']);
  assert.throws(() => cache.resize(0), RangeError);
});

test('hitRate is zero before any lookup and counts misses', () => {
  const cache = new LRUCache(2);
  assert.equal(cache.hitRate(), 0);
  cache.get('x');
  cache.set('x', 1);
  cache.get('x');
  cache.get('x');
  assert.equal(cache.hitRate(), 2 / 3);
});

test('cached falsy values are hits', () => {
  const cache = new LRUCache(2);
  cache.set('zero', 0);
  assert.equal(cache.get('zero'), 0);
  assert.equal(cache.hitRate(), 1);
});

test('queue length, peek and emptiness', () => {
  const q = new BoundedQueue(3);
  assert.equal(q.isEmpty(), true);
  assert.equal(q.peek(), undefined);
  q.enqueue('x');
  q.enqueue('y');
  assert.equal(q.length, 2);
  assert.equal(q.peek(), 'x');
  assert.equal(q.isFull(), false);
});

test('queue keeps order across many wraps', () => {
  const q = new BoundedQueue(3);
  const seen = [];
  for (let i = 0; i < 10; i++) {
    q.enqueue(i);
    if (q.length === 3) seen.push(q.dequeue());
  }
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(q.toArray(), [8, 9]);
});

test('queue capacity must be positive', () => {
  assert.throws(() => new BoundedQueue(0), RangeError);
});
