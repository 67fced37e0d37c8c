import { afterEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error -- plain JavaScript with JSDoc types, served to the build as Vite's preload helper
import { __vitePreload, evaluateInSteps } from './stepwise-preload.js';
import { yieldToMain } from '../src/lib/yield-to-main';

type ImportChunk = (href: string) => Promise<unknown>;
const evaluate = evaluateInSteps as (hrefs: string[], importChunk: ImportChunk) => Promise<void>;
const preload = __vitePreload as <T>(baseModule: () => Promise<T>, deps?: string[]) => Promise<T>;

/** Spends `ms` of the main thread, as evaluating a large chunk does. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * An importer that records each chunk it evaluates and whether the browser had a turn since the previous one:
 * each evaluation posts a message, and the next one looks whether it has been delivered.
 */
function recordingImporter(options: { ms?: number; failing?: string } = {}) {
  const evaluated: string[] = [];
  const turns: boolean[] = [];
  let delivered = true;
  const importChunk: ImportChunk = async (href) => {
    if (href === options.failing) throw new Error(`cannot load ${href}`);
    turns.push(delivered);
    delivered = false;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      delivered = true;
      channel.port1.close();
    };
    channel.port2.postMessage(null);
    busy(options.ms ?? 5);
    evaluated.push(href);
  };
  return { importChunk, evaluated, turns };
}

let serial = 0;
/** Chunk addresses no other test has used (the helper remembers what it has evaluated). */
const chunks = (...names: string[]) => names.map((name) => `https://app.test/assets/${name}-${++serial}.js`);

describe('evaluateInSteps (a screen’s chunks evaluated one per task)', () => {
  it('evaluates the chunks in the order given, giving the browser a turn between two long ones', async () => {
    const hrefs = chunks('libraries', 'fields', 'page');
    const importer = recordingImporter({ ms: 5 });
    await evaluate(hrefs, importer.importChunk);
    expect(importer.evaluated).toEqual(hrefs);
    expect(importer.turns).toEqual([true, true, true]);
  });

  it('evaluates a chunk once, whichever screen asks for it again', async () => {
    const [shared, first, second] = chunks('shared', 'first', 'second');
    const importer = recordingImporter();
    await evaluate([shared!, first!], importer.importChunk);
    await evaluate([shared!, second!], importer.importChunk);
    expect(importer.evaluated).toEqual([shared, first, second]);
  });

  it('runs two imports’ steps one after the other, not interleaved', async () => {
    const a = chunks('a1', 'a2');
    const b = chunks('b1');
    const importer = recordingImporter();
    await Promise.all([evaluate(a, importer.importChunk), evaluate(b, importer.importChunk)]);
    expect(importer.evaluated).toEqual([...a, ...b]);
  });

  it('stops at a chunk that fails and tries it again next time', async () => {
    const [good, bad, after] = chunks('good', 'bad', 'after');
    const failing = recordingImporter({ failing: bad });
    await evaluate([good!, bad!, after!], failing.importChunk);
    expect(failing.evaluated).toEqual([good]);
    const working = recordingImporter();
    await evaluate([good!, bad!, after!], working.importChunk);
    expect(working.evaluated).toEqual([bad, after]);
  });
});

describe('__vitePreload (the build’s preload helper)', () => {
  afterEach(() => {
    for (const link of document.head.querySelectorAll('link[href*="/assets/preload-"]')) link.remove();
  });

  const linkHrefs = () =>
    [...document.head.querySelectorAll<HTMLLinkElement>('link[href*="/assets/preload-"]')].map((link) =>
      link.getAttribute('href'),
    );

  it('adds the links a few per task, waits for the styles, then gives the module', async () => {
    const deps = [
      ...Array.from({ length: 9 }, (_, index) => `assets/preload-${serial}-${index}.js`),
      `assets/preload-${serial}.css`,
    ];
    serial += 1;
    const module = { page: true };
    const loaded = preload(async () => module, deps);
    expect(linkHrefs()).toHaveLength(4);
    await yieldToMain();
    await yieldToMain();
    await yieldToMain();
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[href*="/assets/preload-"]')];
    expect(links.map((link) => link.rel)).toEqual([...Array(9).fill('modulepreload'), 'stylesheet']);
    expect(links.map((link) => new URL(link.href).pathname)).toEqual(deps.map((dep) => `/${dep}`));
    let resolved = false;
    void loaded.then(() => {
      resolved = true;
    });
    await yieldToMain();
    expect(resolved).toBe(false);
    links.at(-1)!.dispatchEvent(new Event('load'));
    await expect(loaded).resolves.toBe(module);
  });

  it('does not fetch again what the page links already', async () => {
    const dep = `assets/preload-present-${++serial}.js`;
    const existing = document.createElement('link');
    existing.rel = 'modulepreload';
    existing.href = `/${dep}`;
    document.head.append(existing);
    await preload(async () => 'ok', [dep]);
    expect(linkHrefs()).toEqual([`/${dep}`]);
    expect(document.head.querySelectorAll(`link[href$="/${dep}"]`)).toHaveLength(1);
  });

  it('reports styles that cannot load as Vite does: an event the app may cancel, else a failure', async () => {
    const listener = vi.fn();
    window.addEventListener('vite:preloadError', listener);
    try {
      const dep = `assets/preload-broken-${++serial}.css`;
      const loaded = preload(async () => 'ok', [dep]);
      await yieldToMain();
      document.head.querySelector<HTMLLinkElement>(`link[href$="/${dep}"]`)!.dispatchEvent(new Event('error'));
      await expect(loaded).rejects.toThrow(`Unable to preload CSS for http://localhost:3000/${dep}`);
      expect(listener).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('vite:preloadError', listener);
    }
  });
});
