/**
 * The search result cache (result-cache.ts): a page is served until a table it read changes, a page computed
 * across a change is not kept, and the cache stays within its entry and byte bounds (least recently used out).
 */
import { describe, expect, it, vi } from 'vitest';
import { SearchResultCache } from './result-cache.js';

const T = ['search_document', 'portal_content'];

describe('SearchResultCache', () => {
  it('serves a stored page until a table it read changes; other tables do not matter', () => {
    const c = new SearchResultCache<{ total: number }>();
    c.set('q1', T, c.stamp(T), { total: 3 });
    expect(c.get('q1')).toEqual({ total: 3 });
    c.invalidate('blade_user');
    expect(c.get('q1')).toEqual({ total: 3 });
    c.invalidate('portal_content');
    expect(c.get('q1')).toBeUndefined();
    expect(c.size.entries).toBe(0);
    expect([c.hits, c.misses]).toEqual([2, 1]);
  });

  it('does not keep a page whose query ran across a change of its tables', () => {
    const c = new SearchResultCache<number>();
    const stamp = c.stamp(T); // taken before the query
    c.invalidate('search_document'); // a commit lands while the query runs
    c.set('q', T, stamp, 1);
    expect(c.get('q')).toBeUndefined();
    c.set('q', T, c.stamp(T), 2);
    expect(c.get('q')).toBe(2);
  });

  it('forgets pages older than ttlMs', () => {
    vi.useFakeTimers();
    try {
      const c = new SearchResultCache<number>(10, 1024 * 1024, 1_000);
      c.set('q', T, c.stamp(T), 1);
      vi.advanceTimersByTime(999);
      expect(c.get('q')).toBe(1);
      vi.advanceTimersByTime(2);
      expect(c.get('q')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps at most maxEntries pages and maxBytes of text, dropping the least recently used', () => {
    const c = new SearchResultCache<string>(3, 1024 * 1024);
    for (const k of ['a', 'b', 'c']) c.set(k, T, c.stamp(T), k);
    expect(c.get('a')).toBe('a'); // a is now the most recently used
    c.set('d', T, c.stamp(T), 'd');
    expect(c.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => c.get(k))).toEqual(['a', 'c', 'd']);

    const small = new SearchResultCache<string>(100, 500);
    for (const k of ['v', 'w', 'x', 'y', 'z']) small.set(k, T, small.stamp(T), k.repeat(50)); // 106 bytes of text each
    expect(small.size).toEqual({ entries: 4, bytes: 424 });
    expect(small.get('v')).toBeUndefined();
    expect(small.get('z')).toBe('z'.repeat(50));
    // a page larger than a quarter of the cache is not stored at all
    small.set('big', T, small.stamp(T), 'b'.repeat(100));
    expect(small.get('big')).toBeUndefined();
  });

  it('stores nothing when it holds no entries (maxEntries 0)', () => {
    const c = new SearchResultCache<number>(0);
    c.set('q', T, c.stamp(T), 1);
    expect(c.get('q')).toBeUndefined();
  });
});
