import type { DataVersion } from '../db/data-version.ts';

interface Entry<V> {
  value: V;
  version: number;
  /** When it was computed: a clock set back before this (tests do) does not see it. */
  computedAt: number;
  /** Epoch milliseconds from which the value is no longer right (time alone changes it); Infinity if never. */
  validUntil: number;
  /** The count of insertions when it was last put at the end of the map (its place in the eviction order). */
  placed: number;
}

/** What a computation found, and until when it stays right if the data does not change. */
export interface Computed<V> {
  value: V;
  validUntil?: number;
}

/**
 * Values computed from the database, kept while the data version has not moved since their computation
 * began (so a computation that overlapped a write is never kept) and until their own time limit. At most
 * `maxEntries`, least recently used first out (see {@link VersionedCache.get}). Concurrent reads of one key
 * while nothing changes share one computation: fifty people opening the same page after a change cost one
 * query, not fifty.
 */
export class VersionedCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #pending = new Map<string, { version: number; promise: Promise<V> }>();
  /** Insertions at the end of the map so far. */
  #placed = 0;

  constructor(
    private readonly version: DataVersion,
    private readonly maxEntries: number,
  ) {}

  /** The kept value of `key` if still right at `nowMs`. */
  get(key: string, nowMs: number): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== this.version.current || nowMs >= entry.validUntil || nowMs < entry.computedAt) {
      this.#entries.delete(key);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order, so the first key is the one to evict. An entry placed
    // fewer than maxEntries / 2 insertions ago has at least that many older ones before it, so it cannot be the
    // first: it stays where it is, and a hot read is spared a delete and an insert on every hit.
    if (this.#placed - entry.placed >= this.maxEntries / 2) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      entry.placed = ++this.#placed;
    }
    return entry.value;
  }

  /**
   * The value of `key`: a kept one at once (no promise, so a hot read sends it in the same turn), or one
   * computed now, as a promise (and kept when nothing changed meanwhile).
   */
  read(key: string, nowMs: number, compute: () => Promise<Computed<V>>): V | Promise<V> {
    const kept = this.get(key, nowMs);
    if (kept !== undefined) return kept;
    const version = this.version.current;
    const pending = this.#pending.get(key);
    if (pending && pending.version === version) return pending.promise;

    const promise = compute().then(({ value, validUntil = Infinity }) => {
      if (this.version.complete && this.version.current === version && nowMs < validUntil) {
        this.#entries.set(key, { value, version, computedAt: nowMs, validUntil, placed: ++this.#placed });
        if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      }
      return value;
    });
    this.#pending.set(key, { version, promise });
    const forget = () => {
      if (this.#pending.get(key)?.promise === promise) this.#pending.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  get size(): number {
    return this.#entries.size;
  }
}
