import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedQueue, LRUCache } from '../src/index.js';

test('the cache returns stored values', () => {
  const cache = new LRUCache(2);
  cache.set('a', 1);
  assert.equal(cache.get('a'), 1);
  assert.equal(cache.get('b'), undefined);
});

test('the cache evicts the least recently used entry', () => {
  const cache = new LRUCache(2);
  cache.set('a', 1).set('b', 2);
  cache.get('a');
  cache.set('c', 3);
  assert.equal(cache.has('b'), false);
  assert.equal(cache.has('a'), true);
  assert.equal(cache.size, 2);
});

test('updating a key does not grow the cache', () => {
  const cache = new LRUCache(2);
  cache.set('a', 1).set('a', 2);
  assert.equal(cache.size, 1);
  assert.equal(cache.get('a'), 2);
});

test('keys lists the most recent first', () => {
  const cache = new LRUCache(3);
  cache.set('a', 1).set('b', 2).set('c', 3);
  cache.get('a');
  assert.deepEqual(cache.keys(), ['a', 'c', 'b']);
});

test('capacity must be positive', () => {
  assert.throws(() => new LRUCache(0), RangeError);
});

test('hitRate counts hits and misses', () => {
  const cache = new LRUCache(2);
  cache.set('a', 1);
  cache.get('a');
  cache.get('x');
  assert.equal(cache.hitRate(), 0.5);
});

test('the queue is first in, first out', () => {
  const q = new BoundedQueue(3);
  q.enqueue(1);
  q.enqueue(2);
  assert.equal(q.dequeue(), 1);
  assert.equal(q.dequeue(), 2);
  assert.equal(q.dequeue(), undefined);
});

test('the queue refuses items when full', () => {
  const q = new BoundedQueue(2);
  assert.equal(q.enqueue('a'), true);
  assert.equal(q.enqueue('b'), true);
  assert.equal(q.enqueue('c'), false);
  assert.equal(q.isFull(), true);
});

test('the queue wraps around its buffer', () => {
  const q = new BoundedQueue(2);
  q.enqueue(1);
  q.enqueue(2);
  q.dequeue();
  q.enqueue(3);
  assert.deepEqual(q.toArray(), [2, 3]);
});
