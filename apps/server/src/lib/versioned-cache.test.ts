import { describe, expect, it } from 'vitest';
import { DataVersion } from '../db/data-version.ts';
import { VersionedCache } from './versioned-cache.ts';

const value = (text: string, validUntil?: number) => async () => ({ value: text, validUntil });

describe('VersionedCache', () => {
  it('keeps a value until the data version moves', async () => {
    const version = new DataVersion();
    const cache = new VersionedCache<string>(version, 10);
    expect(await cache.read('k', 0, value('a'))).toBe('a');
    expect(await cache.read('k', 0, value('b'))).toBe('a');
    version.bump();
    expect(cache.get('k', 0)).toBeUndefined();
    expect(await cache.read('k', 0, value('c'))).toBe('c');
  });

  it('keeps a value until its own time limit, and not for a clock set back before it was computed', async () => {
    const cache = new VersionedCache<string>(new DataVersion(), 10);
    await cache.read('k', 1000, value('a', 2000));
    expect(cache.get('k', 1999)).toBe('a');
    expect(cache.get('k', 999)).toBeUndefined();
    await cache.read('k', 1000, value('a', 2000));
    expect(cache.get('k', 2000)).toBeUndefined();
  });

  it('never keeps a computation that overlapped a change, nor anything while changes cannot all be seen', async () => {
    const version = new DataVersion();
    const cache = new VersionedCache<string>(version, 10);
    expect(
      await cache.read('k', 0, async () => {
        version.bump();
        return { value: 'read before the change' };
      }),
    ).toBe('read before the change');
    expect(cache.get('k', 0)).toBeUndefined();

    version.complete = false;
    await cache.read('k', 0, value('a'));
    expect(cache.get('k', 0)).toBeUndefined();
  });

  it('shares one computation among concurrent reads of a key, but not across a change', async () => {
    const version = new DataVersion();
    const cache = new VersionedCache<string>(version, 10);
    let computations = 0;
    const finishers: Array<() => void> = [];
    const slow = () =>
      new Promise<{ value: string }>((resolve) => {
        computations += 1;
        const made = computations;
        finishers.push(() => resolve({ value: `computation ${made}` }));
      });
    const first = cache.read('k', 0, slow);
    const second = cache.read('k', 0, slow);
    expect(computations).toBe(1);
    version.bump();
    const third = cache.read('k', 0, slow);
    expect(computations).toBe(2);
    for (const finish of finishers) finish();
    expect([await first, await second, await third]).toEqual(['computation 1', 'computation 1', 'computation 2']);
    // Only the computation that began at the current version is kept.
    expect(await cache.read('k', 0, value('x'))).toBe('computation 2');
  });

  it('holds at most maxEntries, dropping the least recently used', async () => {
    const cache = new VersionedCache<string>(new DataVersion(), 2);
    await cache.read('a', 0, value('a'));
    await cache.read('b', 0, value('b'));
    expect(cache.get('a', 0)).toBe('a');
    await cache.read('c', 0, value('c'));
    expect(cache.size).toBe(2);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBe('a');
    expect(cache.get('c', 0)).toBe('c');
  });

  it('never drops an entry read since the last maxEntries / 2 insertions, however many follow', async () => {
    const cache = new VersionedCache<string>(new DataVersion(), 10);
    await cache.read('hot', 0, value('hot'));
    for (let i = 0; i < 100; i += 1) {
      await cache.read(`cold ${i}`, 0, value(`cold ${i}`));
      // Read between every few insertions, as a hot read is: it must survive 100 insertions into 10 places.
      if (i % 4 === 0) expect(cache.get('hot', 0)).toBe('hot');
    }
    expect(cache.size).toBe(10);
    // The cold ones went oldest first: the last nine are there, the earlier ones are not.
    expect(cache.get('cold 99', 0)).toBe('cold 99');
    expect(cache.get('cold 91', 0)).toBe('cold 91');
    expect(cache.get('cold 89', 0)).toBeUndefined();
  });
});
