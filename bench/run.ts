/**
 * `npm run bench`: starts the real application on loopback (embedded database, demo data) and measures
 * throughput and latency of the hot API paths with autocannon. Every run is bounded in time and sends
 * traffic only to 127.0.0.1. Then the slot engine, the managers' lists over 100 000 appointments, and video
 * calls between two Chromium pages (inside a loopback-only network namespace when `unshare -n` works here).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContext } from '../apps/server/src/create-context.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { DEMO_PASSWORD, seedDemoData } from '../apps/server/src/demo-data/seed.ts';
import { benchAppointmentLists } from './appointment-lists.bench.ts';
import { benchSlots } from './slots.bench.ts';
import { benchVideoCallsOnLoopback } from './video-call.bench.ts';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

async function main() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-bench-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const database = await openDatabase({ dataDir });
  await database.migrate();
  await seedDemoData(database.db);
  const context = createContext(config, database);
  const app = await buildApp(context);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const login = await app.inject({
    method: 'POST',
    url: '/api/login/',
    payload: { email: 'customer@vetcall.test', password: DEMO_PASSWORD },
  });
  const token = login.json<{ token: string }>().token;
  const etag = (await app.inject({ url: '/api/translations/pt' })).headers.etag as string;

  const scenarios = [
    { name: 'GET /api/health', path: '/api/health', headers: {} },
    { name: 'GET /api/translations/pt (304)', path: '/api/translations/pt', headers: { 'if-none-match': etag } },
    { name: 'GET /api/translations/pt (200)', path: '/api/translations/pt', headers: {} },
    { name: 'GET /api/me (session lookup)', path: '/api/me', headers: { authorization: `Bearer ${token}` } },
  ];

  const rows = [];
  for (const scenario of scenarios) {
    const result = await autocannon({
      url: `${base}${scenario.path}`,
      headers: scenario.headers,
      connections: 10,
      duration: DURATION_SECONDS,
    });
    rows.push({
      scenario: scenario.name,
      'req/s': Math.round(result.requests.average),
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      errors: result.errors + result.non2xx - (scenario.name.includes('304') ? result['3xx'] : 0),
    });
  }

  // Login is bound by argon2id on purpose; measured serially to report its cost per attempt.
  const started = performance.now();
  const attempts = 10;
  for (let i = 0; i < attempts; i += 1) {
    await app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: 'vet@vetcall.test', password: DEMO_PASSWORD },
    });
  }
  rows.push({
    scenario: 'POST /api/login/ (argon2id, serial)',
    'req/s': Math.round(attempts / ((performance.now() - started) / 1000)),
    'p50 ms': Math.round((performance.now() - started) / attempts),
    'p99 ms': '-',
    errors: 0,
  });

  console.table(rows);

  // The slot engine (pure): goals from the scheduling issue.
  console.table(
    (await benchSlots()).map((result) => ({
      measure: result.name,
      median: `${result.value.toFixed(2)} ${result.unit}`,
      goal: `≤ ${result.goal} ${result.unit}`,
      met: result.value <= result.goal ? 'yes' : 'NO',
    })),
  );
  await app.close();
  await database.close();
  await rm(dataDir, { recursive: true, force: true });

  // The managers' appointments list over 100 000 appointments (issue "Lists scale").
  const lists = await benchAppointmentLists();
  console.log(`  100 000 appointments seeded in ${lists.seedSeconds.toFixed(1)} s; window query plan: ${lists.plan}`);
  console.table(
    lists.results.map((result) => ({
      measure: result.name,
      median: `${result.value.toFixed(2)} ${result.unit}`,
      goal: `≤ ${result.goal} ${result.unit}`,
      met: result.value <= result.goal ? 'yes' : 'NO',
    })),
  );

  // The built-in video room, Chromium to Chromium on loopback (issue 8).
  const video = await benchVideoCallsOnLoopback();
  if ('skipped' in video) {
    console.log(`  video call bench skipped: ${video.skipped}`);
  } else {
    const where = video.network === 'host network' ? ' (host network)' : '';
    console.log(
      `  video calls measured in ${video.network === 'host network' ? 'the host network' : 'a loopback-only network namespace'}`,
    );
    console.table(
      video.rows.map((result) => ({
        measure: `${result.name}${where}`,
        value: `${result.value} ${result.unit}`,
        goal: result.goal === undefined ? '-' : `≤ ${result.goal} ${result.unit}`,
        met: result.goal === undefined ? '-' : result.value <= result.goal ? 'yes' : 'NO',
      })),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
