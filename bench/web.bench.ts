/**
 * The web app's weight and page quality (issue 16): for each route, the gzip size of the JavaScript the browser
 * really loads, and Lighthouse's performance and accessibility scores on `/`, `/registration` and `/customer`.
 * Called by bench/run.ts through {@link benchWebApp}, or alone against a running `npm start` (bench/web-only.ts).
 *
 * Bundles: Chromium (playwright-core, Debian's /usr/bin/chromium) opens each route in a fresh context with the
 * cache off and records every JavaScript response, modulepreloads included; each body is gzip-sized here
 * (level 9), so the figure does not depend on how the server compresses. Screens behind the navigation guard
 * are measured as the guard lets them load cold: log in through the login form, then reload the route
 * (docs/decisions/012-a-reload-stays-on-its-page.md). The vet and manager screens use the demo accounts, which
 * share the customer's demo password.
 *
 * Lighthouse 12.2.3 (the newest on Node 20), default mobile settings with simulated throttling, on Chromium
 * started by chrome-launcher; nothing is downloaded. `/customer` is audited as a reload of the logged-in
 * screen with the browser cache cleared first, so it is a cold load that the guard allows. Each route is
 * audited LIGHTHOUSE_RUNS times (default 3) and the median performance score is kept: the score moves with the
 * machine's load. Each score carries the host's BenchmarkIndex of its audit, which its simulated timings scale with.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { navigation } from 'lighthouse';
import { type Browser, type BrowserContext, chromium, type Page, type Response } from 'playwright-core';
import puppeteer from 'puppeteer-core';

export interface WebBenchOptions {
  /** Where `npm start` (or bench/run.ts) serves the app, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  customer: { email: string; password: string };
}

export interface WebBenchResult {
  bundles: Array<{ route: string; jsGzipKB: number; target?: number }>;
  lighthouse: Array<{
    route: string;
    performance: number;
    accessibility: number;
    metrics: { fcpMs: number; lcpMs: number; tbtMs: number; speedIndexMs: number; cls: number };
    /**
     * Lighthouse's BenchmarkIndex of the host during the audit: its simulated mobile timings scale with the
     * host's speed (4× CPU slowdown assumes an index of about 1500), so a score is read with it.
     */
    benchmarkIndex: number;
  }>;
}

/** The login route's JavaScript budget, gzip (issue 16). */
const LOGIN_ROUTE_TARGET_KB = 150;
const STAFF_ACCOUNTS = { '/vet': 'vet@vetcall.test', '/manager': 'manager@vetcall.test' } as const;
/** The video room's route: the PIN screen, whose chunk holds the room it opens. */
const VIDEO_ROOM_ROUTE = '/appointment';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const NAVIGATION_TIMEOUT_MS = 60_000;

const kilobytes = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export async function benchWebApp(options: WebBenchOptions): Promise<WebBenchResult> {
  const bundles = await measureBundles(options);
  const lighthouseScores = await measureLighthouse(options);
  return { bundles, lighthouse: lighthouseScores };
}

async function logIn(page: Page, baseUrl: string, email: string, password: string, home: string): Promise<void> {
  await page.goto(`${baseUrl}/?lang=en`, { waitUntil: 'networkidle', timeout: NAVIGATION_TIMEOUT_MS });
  await page.locator('input[autocomplete="username"]').fill(email);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === home, { timeout: NAVIGATION_TIMEOUT_MS });
}

/**
 * Sums the gzip size of every script the page fetches while `load` runs and until the network is idle. The
 * browser's responses give the list; each body is fetched again here, since a response the page navigated
 * away from (the login page's, during the login) no longer has one in the browser.
 */
async function scriptBytesDuring(context: BrowserContext, page: Page, load: () => Promise<unknown>): Promise<number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Set<string>();
  const onResponse = (response: Response) => {
    const isScript = response.request().resourceType() === 'script' || new URL(response.url()).pathname.endsWith('.js');
    if (isScript && response.ok()) scripts.add(response.url());
  };
  page.on('response', onResponse);
  try {
    await load();
    await page.waitForLoadState('networkidle', { timeout: NAVIGATION_TIMEOUT_MS });
  } finally {
    page.off('response', onResponse);
  }
  const sizes = await Promise.all(
    [...scripts].map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).length;
    }),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

async function measureBundles({ baseUrl, customer }: WebBenchOptions): Promise<WebBenchResult['bundles']> {
  const browser: Browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const measure = async (route: string, account?: { email: string; password: string }) => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        if (account) await logIn(page, baseUrl, account.email, account.password, route);
        const bytes = await scriptBytesDuring(context, page, () =>
          account
            ? page.reload({ waitUntil: 'networkidle', timeout: NAVIGATION_TIMEOUT_MS })
            : page.goto(`${baseUrl}${route}`, { waitUntil: 'networkidle', timeout: NAVIGATION_TIMEOUT_MS }),
        );
        const landed = new URL(page.url()).pathname;
        if (landed !== route) throw new Error(`bundle of ${route}: the page ended on ${landed}`);
        return kilobytes(bytes);
      } finally {
        await context.close();
      }
    };
    const staff = (route: keyof typeof STAFF_ACCOUNTS) => ({
      email: STAFF_ACCOUNTS[route],
      password: customer.password,
    });
    return [
      { route: '/', jsGzipKB: await measure('/'), target: LOGIN_ROUTE_TARGET_KB },
      { route: '/registration', jsGzipKB: await measure('/registration') },
      { route: '/customer', jsGzipKB: await measure('/customer', customer) },
      { route: '/vet', jsGzipKB: await measure('/vet', staff('/vet')) },
      { route: '/manager', jsGzipKB: await measure('/manager', staff('/manager')) },
      { route: VIDEO_ROOM_ROUTE, jsGzipKB: await measure(VIDEO_ROOM_ROUTE) },
    ];
  } finally {
    await browser.close();
  }
}

type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
const LIGHTHOUSE_FLAGS = {
  output: 'json' as const,
  logLevel: 'error' as const,
  onlyCategories: ['performance', 'accessibility'],
};

function scores(lhr: LighthouseResult) {
  // LIGHTHOUSE_REPORT_DIR=dir keeps each run's whole report, to see what holds a score back.
  const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
  if (reportDir) {
    const name = `${new URL(lhr.finalDisplayedUrl).pathname.replaceAll('/', '_') || '_'}-${Date.now()}.json`;
    mkdirSync(reportDir, { recursive: true });
    writeFileSync(path.join(reportDir, name), JSON.stringify(lhr));
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${lhr.finalDisplayedUrl}: ${lhr.runtimeError.message}`);
  const metric = (id: string) => Math.round((lhr.audits[id]?.numericValue ?? 0) * 1000) / 1000;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    // What the score is made of (simulated mobile timings, ms), to see which one holds it back.
    metrics: {
      fcpMs: Math.round(metric('first-contentful-paint')),
      lcpMs: Math.round(metric('largest-contentful-paint')),
      tbtMs: Math.round(metric('total-blocking-time')),
      speedIndexMs: Math.round(metric('speed-index')),
      cls: metric('cumulative-layout-shift'),
    },
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
  };
}

/** One audit in a fresh Chromium, so no run inherits another's cache or storage. */
async function auditOnce(baseUrl: string, route: string, customer: WebBenchOptions['customer']) {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: CHROMIUM_FLAGS });
  try {
    if (route !== '/customer') {
      const result = await lighthouse(`${baseUrl}${route}`, { ...LIGHTHOUSE_FLAGS, port: chrome.port });
      if (!result) throw new Error(`Lighthouse gave no result for ${route}`);
      return scores(result.lhr);
    }
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    try {
      const page = await browser.newPage();
      await page.goto(`${baseUrl}/?lang=en`, { waitUntil: 'networkidle0', timeout: NAVIGATION_TIMEOUT_MS });
      await page.type('input[autocomplete="username"]', customer.email);
      await page.type('input[autocomplete="current-password"]', customer.password);
      await Promise.all([
        page.waitForFunction(() => location.pathname === '/customer', { timeout: NAVIGATION_TIMEOUT_MS }),
        page.click('form button[type="submit"]'),
      ]);
      // The session stays (no storage reset); the cache goes, so the audited reload is a cold load.
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
      const result = await navigation(
        page,
        async () => {
          await page.reload();
        },
        { flags: { ...LIGHTHOUSE_FLAGS, disableStorageReset: true } },
      );
      if (!result) throw new Error('Lighthouse gave no result for /customer');
      const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
      if (landed !== '/customer') throw new Error(`Lighthouse on /customer ended on ${landed}`);
      return scores(result.lhr);
    } finally {
      await browser.disconnect();
    }
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse 12 on a newer Chromium sometimes loses the trace's navigation start (NO_NAVSTART, "run Lighthouse
 * again"); such a run has no scores, so it is run again, up to three times.
 */
async function auditWithRetries(baseUrl: string, route: string, customer: WebBenchOptions['customer']) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(baseUrl, route, customer);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`Lighthouse on ${route}, attempt ${attempt}: ${(error as Error).message}`);
    }
  }
}

async function measureLighthouse({ baseUrl, customer }: WebBenchOptions): Promise<WebBenchResult['lighthouse']> {
  const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
  const results: WebBenchResult['lighthouse'] = [];
  for (const route of ['/', '/registration', '/customer']) {
    const audits = [];
    for (let run = 0; run < runs; run += 1) audits.push(await auditWithRetries(baseUrl, route, customer));
    audits.sort((a, b) => a.performance - b.performance);
    const median = audits[Math.floor(audits.length / 2)]!;
    results.push({
      route,
      performance: median.performance,
      accessibility: Math.min(...audits.map((a) => a.accessibility)),
      metrics: median.metrics,
      benchmarkIndex: median.benchmarkIndex,
    });
  }
  return results;
}
