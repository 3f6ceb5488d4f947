// LRUCache keeps at most `capacity` entries, evicting the least recently used; BoundedQueue is a
// fixed-size ring buffer.

export class LRUCache {
  constructor(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
    this.capacity = capacity;
    this.map = new Map();
    this.hits = 0;
    this.misses = 0;
  }

  get size() {
    return this.map.size;
  }

  has(key) {
    return this.map.has(key);
  }

  get(key) {
    if (!this.map.has(key)) {
      this.misses += 1;
      return undefined;
    }
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    this.hits += 1;
    return value;
  }

  peek(key) {
    return this.map.get(key);
  }

  set(key, value) {
    if (this.map.has(key)) this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      this.map.delete(oldest);
    }
    return this;
  }

  delete(key) {
    return this.map.delete(key);
  }

  keys() {
    return [...this.map.keys()].reverse();
  }

  resize(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
    this.capacity = capacity;
    while (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      this.map.delete(oldest);
    }
  }

  hitRate() {
    const total = this.hits + this.misses;
    if (total === 0) return 0;
    return this.hits / total;
  }
}

export class BoundedQueue {
  constructor(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError('capacity must be a positive integer');
    }
    this.items = new Array(capacity);
    this.head = 0;
    this.count = 0;
  }

  get length() {
    return this.count;
  }

  isFull() {
    return this.count === this.items.length;
  }

  isEmpty() {
    return this.count === 0;
  }

  enqueue(item) {
    if (this.isFull()) return false;
    const tail = (this.head + this.count) % this.items.length;
    this.items[tail] = item;
    this.count += 1;
    return true;
  }

  dequeue() {
    if (this.isEmpty()) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.items.length;
    this.count -= 1;
    return item;
  }

  peek() {
    if (this.isEmpty()) return undefined;
    return this.items[this.head];
  }

  toArray() {
    const out = [];
    for (let i = 0; i < this.count; i++) {
      out.push(this.items[(this.head + i) % this.items.length]);
    }
    return out;
  }
}
