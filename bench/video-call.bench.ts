/**
 * The built-in video room on loopback (issue 8): time from both parties pressing Connect to the remote video
 * playing on both sides, the median of 10 calls, goal ≤ 2 s after the 2 s "connecting" pause. Called by
 * bench/run.ts through {@link benchVideoCallsOnLoopback}.
 *
 * The real application runs in-process on 127.0.0.1 (own embedded database, the built web app), with 10
 * confirmed appointments whose rooms are open now; Chromium (playwright-core, fake camera and microphone)
 * plays the vet and the customer in two browser contexts. Each call: both pages open `/appointment/<pin>`,
 * both press Connect at once (t0: both clicks done), then on both pages the remote <video> must have frames
 * (videoWidth > 0) and its currentTime must advance (t1: the later of the two). The figure is
 * t1 − t0 − PIN_CONNECTING_DELAY_MS (the 2 s "connecting" pause docs/product-rules.md#limits requires); then both hang
 * up and wait for the PIN screen before the next call.
 *
 * Where `unshare -n` works (root or user namespaces), the measurement runs as a child process inside a
 * network namespace that has only loopback (`tsx bench/video-call.bench.ts --main`, which prints its result
 * as one JSON line), so no media packet can leave 127.0.0.1; otherwise in-process, marked "host network".
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContext } from '../apps/server/src/create-context.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { buildVideoAppointment } from '../apps/server/test/video-world.ts';
import { PIN_CONNECTING_DELAY_MS } from '../packages/shared/src/constants.ts';
import {
  canEnterLoopbackNamespace,
  inLoopbackNamespace,
  loopbackNamespaceCommand,
} from '../scripts/loopback-namespace.mjs';
import type { BenchResult } from './slots.bench.ts';

const CALLS = 10;
const GOAL_MS = 2000;
/** Longest wait for one call to show video on both sides, or to hang up. */
const CALL_TIMEOUT_MS = 30_000;
const RESULT_MARKER = 'VETCALL_VIDEO_BENCH_RESULT ';

const repoRoot = path.resolve(import.meta.dirname, '..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
];

/** A row of the table: the median has the goal; the other figures are for information. */
export type VideoBenchRow = Omit<BenchResult, 'goal'> & { goal?: number };
export type VideoBenchOutcome = VideoBenchRow[] | { skipped: string };

function chromiumFound(): boolean {
  try {
    accessSync(chromiumPath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Like `npm start`: build the web app when its build is missing or older than its sources. */
function ensureWebBuild() {
  const builtIndex = path.join(repoRoot, 'apps/web/dist/index.html');
  const newest = (target: string): number => {
    const stats = statSync(target);
    if (!stats.isDirectory()) return stats.mtimeMs;
    return readdirSync(target).reduce((max, entry) => Math.max(max, newest(path.join(target, entry))), stats.mtimeMs);
  };
  const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/public', 'packages/shared/src']
    .map((source) => path.join(repoRoot, source))
    .filter((source) => existsSync(source));
  if (existsSync(builtIndex) && sources.every((source) => newest(source) <= statSync(builtIndex).mtimeMs)) return;
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@vetcall/web'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web app build failed');
}

/** A free port on 127.0.0.1, so PUBLIC_URL (and the CSP's WebSocket origin) name the real one. */
async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const median = (sorted: number[]) =>
  sorted.length % 2 === 1
    ? sorted[sorted.length >> 1]!
    : (sorted[(sorted.length >> 1) - 1]! + sorted[sorted.length >> 1]!) / 2;
/** Nearest-rank percentile of sorted samples. */
const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (value: number) => Math.round(value);

/** Opens the PIN screen of `pin`, with the PIN in its field and Connect ready. */
async function openPinScreen(page: Page, base: string, pin: string) {
  await page.goto(`${base}/appointment/${pin}?lang=en`);
  const field = page.getByLabel(/^PIN\b/);
  await field.waitFor({ timeout: CALL_TIMEOUT_MS });
  if ((await field.inputValue()) !== pin) await field.fill(pin);
  await page.getByRole('button', { name: 'Connect', exact: true }).waitFor({ timeout: CALL_TIMEOUT_MS });
}

/** Resolves (to performance.now()) once the remote video has frames and its playback time moves. */
async function remoteVideoPlaying(page: Page): Promise<number> {
  await page.waitForFunction(
    () => {
      const video = document.querySelector('video[data-testid="remote-video"]') as
        (HTMLVideoElement & { benchLastTime?: number }) | null;
      if (!video || video.videoWidth === 0) return false;
      const last = video.benchLastTime;
      video.benchLastTime = video.currentTime;
      return last !== undefined && video.currentTime > last;
    },
    undefined,
    { polling: 50, timeout: CALL_TIMEOUT_MS },
  );
  return performance.now();
}

/** Hangs up (if the room still offers it) and waits for the PIN screen. */
async function hangUp(page: Page) {
  await page
    .getByRole('button', { name: 'Leave the call' })
    .click({ timeout: 5000 })
    .catch(() => undefined);
  await page.getByRole('button', { name: 'Connect', exact: true }).waitFor({ timeout: CALL_TIMEOUT_MS });
}

/** The measurement itself, in this process, on whatever network this process has. */
export async function benchVideoCalls(): Promise<VideoBenchOutcome> {
  if (!chromiumFound()) return { skipped: `Chromium not found at ${chromiumPath} (set CHROMIUM_PATH)` };
  ensureWebBuild();

  const dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-bench-video-'));
  const port = await freeLoopbackPort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL: base });
  const database = await openDatabase({ dataDir });
  const context = createContext(config, database);
  try {
    await database.migrate();
    const app = await buildApp(context);
    await app.listen({ host: '127.0.0.1', port });
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
      // Ten rooms open now, each with its own vet and customer: nothing overlaps.
      const schedule = new Date(Date.now() + 5 * 60_000);
      const calls = [];
      for (let i = 1; i <= CALLS; i += 1) {
        const built = await buildVideoAppointment(
          { db: context.db, context },
          { schedule, vetName: `Bench Vet ${i}`, customerName: `Bench Customer ${i}` },
        );
        calls.push(built.pins);
      }

      const vetPage = await (await browser.newContext()).newPage();
      const customerPage = await (await browser.newContext()).newPage();
      const samples: number[] = [];
      for (const [index, pins] of calls.entries()) {
        try {
          await Promise.all([openPinScreen(vetPage, base, pins.vet), openPinScreen(customerPage, base, pins.customer)]);
          await Promise.all([
            vetPage.getByRole('button', { name: 'Connect', exact: true }).click(),
            customerPage.getByRole('button', { name: 'Connect', exact: true }).click(),
          ]);
          const t0 = performance.now();
          const playing = await Promise.all([remoteVideoPlaying(vetPage), remoteVideoPlaying(customerPage)]);
          const sample = Math.max(...playing) - t0 - PIN_CONNECTING_DELAY_MS;
          samples.push(sample);
          console.log(`  video call ${index + 1}/${CALLS}: ${round(sample)} ms after the pause`);
          await Promise.all([hangUp(vetPage), hangUp(customerPage)]);
        } catch (error) {
          // What each side showed, for the one reading the failure.
          const shots = [
            path.join(tmpdir(), 'vetcall-bench-video-vet.png'),
            path.join(tmpdir(), 'vetcall-bench-video-customer.png'),
          ];
          await Promise.all([
            vetPage.screenshot({ path: shots[0] }),
            customerPage.screenshot({ path: shots[1] }),
          ]).catch(() => undefined);
          throw new Error(`video call ${index + 1} failed (screenshots: ${shots.join(', ')})`, { cause: error });
        }
      }

      const sorted = [...samples].sort((a, b) => a - b);
      return [
        {
          name: `video call: Connect → remote video playing on both sides (median of ${CALLS}, after the 2 s pause)`,
          value: round(median(sorted)),
          unit: 'ms',
          goal: GOAL_MS,
        },
        { name: `video call: p90 of the same ${CALLS} calls`, value: round(percentile(sorted, 90)), unit: 'ms' },
      ];
    } finally {
      await browser?.close();
      await app.close();
    }
  } finally {
    await context.mailer.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The measurement on loopback only: inside a fresh loopback-only network namespace when this machine allows
 * one (a child process), else in this process on the host network (and `network` says so).
 */
export async function benchVideoCallsOnLoopback(): Promise<
  { rows: VideoBenchRow[]; network: 'loopback namespace' | 'host network' } | { skipped: string }
> {
  if (inLoopbackNamespace() || !canEnterLoopbackNamespace()) {
    const outcome = await benchVideoCalls();
    if ('skipped' in outcome) return outcome;
    return { rows: outcome, network: inLoopbackNamespace() ? 'loopback namespace' : 'host network' };
  }
  if (!chromiumFound()) return { skipped: `Chromium not found at ${chromiumPath} (set CHROMIUM_PATH)` };
  ensureWebBuild(); // here, where its output is plainly visible

  // The same Node with the same TypeScript loader (tsx) that runs this file.
  const loader = process.execArgv.length > 0 ? process.execArgv : ['--import', 'tsx'];
  const { command, args, env } = loopbackNamespaceCommand([
    process.execPath,
    ...loader,
    import.meta.filename,
    '--main',
  ]);
  const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let result: VideoBenchOutcome | undefined;
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith(RESULT_MARKER)) result = JSON.parse(line.slice(RESULT_MARKER.length)) as VideoBenchOutcome;
      else console.log(line);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 || !result) throw new Error(`the video bench in the loopback namespace failed (exit code ${code})`);
  if ('skipped' in result) return result;
  return { rows: result, network: 'loopback namespace' };
}

if (process.argv.includes('--main') && process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  try {
    const outcome = await benchVideoCalls();
    process.stdout.write(`${RESULT_MARKER}${JSON.stringify(outcome)}\n`);
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
