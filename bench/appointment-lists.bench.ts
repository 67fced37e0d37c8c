/**
 * The managers' appointments list over 100 000 appointments in the embedded database (issue "Lists scale"),
 * called by bench/run.ts. The rows are made with INSERT … SELECT generate_series (seconds, not minutes),
 * spread over two years around a fixed "now"; then the real routes are timed through the application
 * (authentication, query, serialization), each figure the median of many calls after a warm-up.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { fixedClock } from '../apps/server/src/clock.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContext } from '../apps/server/src/create-context.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { buildManager } from '../apps/server/src/demo-data/factories.ts';
import type { BenchResult } from './slots.bench.ts';

const APPOINTMENTS = 100_000;
const VETS = 20;
const CUSTOMERS = 2_000;
/** The bench's "today": the default filter window is 15 days either side of it. */
const NOW = new Date('2026-11-20T10:00:00Z');
const PASSWORD = 'bench-password';

async function medianMs(run: () => Promise<unknown>, repetitions: number, warmup: number): Promise<number> {
  for (let i = 0; i < warmup; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < repetitions; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const middle = samples.length >> 1;
  return samples.length % 2 === 1 ? samples[middle]! : (samples[middle - 1]! + samples[middle]!) / 2;
}

const round = (value: number) => Math.round(value * 100) / 100;

export async function benchAppointmentLists(): Promise<{ results: BenchResult[]; seedSeconds: number; plan: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-bench-lists-'));
  const database = await openDatabase({ dataDir });
  try {
    await database.migrate();
    const { db } = database;
    const seedStarted = performance.now();
    await buildManager(db, { email: 'boss@bench.test', password: PASSWORD });
    // Accounts that never log in: any password hash will do.
    await db.execute(sql`
      insert into users (type, name, email, password_hash)
      select 'vet', 'Vet ' || g, 'vet' || g || '@bench.test', 'x' from generate_series(1, ${VETS}::integer) g`);
    await db.execute(sql`insert into vets (user_id) select id from users where type = 'vet'`);
    await db.execute(sql`
      insert into users (type, name, email, password_hash)
      select 'customer', 'Customer ' || g, 'customer' || g || '@bench.test', 'x'
      from generate_series(1, ${CUSTOMERS}::integer) g`);
    await db.execute(sql`insert into customers (user_id) select id from users where type = 'customer'`);
    await db.execute(sql`
      insert into pets (customer_id, name, species, gender, birth, fertile_status, weight)
      select id, 'Pet ' || id, 'Dog', 'F', '2020-01-01', 'intact', 10 from customers`);
    // Two years of appointments around NOW, one every ~10.5 minutes, round-robin over vets and pets.
    await db.execute(sql`
      with vet_ids as (select array_agg(user_id order by user_id) as ids from vets),
           pet_rows as (
             select array_agg(pets.id order by pets.id) as pet_ids,
                    array_agg(customers.user_id order by pets.id) as owner_ids
             from pets join customers on customers.id = pets.customer_id)
      insert into appointments (hash, customer_user_id, pet_id, vet_user_id, description, schedule, status,
                                status_date, price_cents)
      select 'bench-' || g,
             pet_rows.owner_ids[1 + g % ${CUSTOMERS}::integer],
             pet_rows.pet_ids[1 + g % ${CUSTOMERS}::integer],
             vet_ids.ids[1 + g % ${VETS}::integer],
             'Benchmark appointment',
             ${NOW.toISOString()}::timestamptz - interval '365 days' + g * interval '315 seconds',
             (array['TK_Requested', 'TK_Confirmed', 'TK_Completed', 'TK_Canceled'])[1 + g % 4],
             ${NOW.toISOString()}::timestamptz - interval '400 days' + g * interval '315 seconds',
             2500
      from generate_series(1, ${APPOINTMENTS}::integer) g, vet_ids, pet_rows`);
    await db.execute(sql`analyze`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
    const context = createContext(config, database, { clock: fixedClock(NOW) });
    const app = await buildApp(context);
    await app.ready();
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { email: 'boss@bench.test', password: PASSWORD },
      });
      const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
      const firstVet = (await db.execute(sql`select user_id from vets order by user_id limit 1`)) as unknown as {
        rows: { user_id: number }[];
      };
      const vetUserId = firstVet.rows[0]!.user_id;

      const page = async (url: string) => {
        const response = await app.inject({ method: 'GET', url, headers });
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        return response.json<{ items: unknown[]; next_cursor: string | null }>();
      };
      // docs/product-rules.md#limits default window: 15 days before and after today.
      const window = '2026-11-05_2026-12-05';
      const first = await page(`/api/appointments/mngrecord/${window}_all`);
      if (first.items.length !== 200 || !first.next_cursor) throw new Error('expected a full first page');
      // A deep page: the 20th of the whole two years, reached by its cursor.
      let cursor: string | null = null;
      for (let i = 0; i < 20; i += 1) {
        const next: { next_cursor: string | null } = await page(
          `/api/appointments/mngrecord/1950-01-01_2026-12-20_all${cursor ? `?cursor=${cursor}` : ''}`,
        );
        cursor = next.next_cursor;
      }

      const firstPage = await medianMs(() => page(`/api/appointments/mngrecord/${window}_all`), 50, 5);
      const filtered = await medianMs(() => page(`/api/appointments/mngrecord/${window}_${vetUserId}`), 50, 5);
      const wholeRange = await medianMs(() => page('/api/appointments/mngrecord/1950-01-01_2026-12-20_all'), 50, 5);
      const deep = await medianMs(
        () => page(`/api/appointments/mngrecord/1950-01-01_2026-12-20_all?cursor=${cursor}`),
        50,
        5,
      );

      const exported = await medianMs(
        async () => {
          const response = await app.inject({
            method: 'GET',
            url: `/api/exports/appointments?param=${window}_all`,
            headers,
          });
          if (response.statusCode !== 200) throw new Error(`export: ${response.statusCode}`);
        },
        10,
        1,
      );

      const explained = (await db.execute(sql`
        explain select a.id from appointments a
        where a.schedule >= '2026-11-05T00:00:00Z' and a.schedule < '2026-12-06T00:00:00Z'
        order by a.schedule, a.id limit 201`)) as unknown as { rows: { 'QUERY PLAN': string }[] };
      const plan = explained.rows.map((row) => row['QUERY PLAN'].trim()).join(' | ');

      return {
        seedSeconds,
        plan,
        results: [
          {
            name: `mngrecord first page (±15 days, all vets; ${APPOINTMENTS} rows)`,
            value: round(firstPage),
            unit: 'ms',
            goal: 50,
          },
          { name: 'mngrecord first page filtered by one vet (±15 days)', value: round(filtered), unit: 'ms', goal: 50 },
          { name: 'mngrecord first page, whole range 1950 → +1 month', value: round(wholeRange), unit: 'ms', goal: 50 },
          { name: 'mngrecord 21st page by cursor, whole range', value: round(deep), unit: 'ms', goal: 50 },
          { name: 'Excel export of the ±15-day window (~4 000 rows)', value: round(exported), unit: 'ms', goal: 2000 },
        ],
      };
    } finally {
      await app.close();
      await context.mailer.close();
    }
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
