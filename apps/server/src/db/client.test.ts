import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { usingPostgres, withDatabase } from '../../test/database.ts';
import { type DatabaseHandle, openDatabase } from './client.ts';
import { buildCustomer } from '../demo-data/factories.ts';
import { customers, users } from './schema.ts';

async function appliedMigrations(handle: DatabaseHandle): Promise<number> {
  const result = await handle.db.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
  return (result as unknown as { rows: { count: number }[] }).rows[0]!.count;
}

/** Opens the same store twice, as two runs of the server would. */
async function checkSurvivesRestart(open: () => Promise<DatabaseHandle>) {
  const first = await open();
  await first.migrate();
  await first.migrate();
  const { user } = await buildCustomer(first.db, { email: 'kept@clinic.test', name: 'Kept', city: 'Porto' });
  const migrationsAfterFirstRun = await appliedMigrations(first);
  expect(migrationsAfterFirstRun).toBeGreaterThan(0);
  await first.close();

  const second = await open();
  try {
    await second.migrate();
    const rows = await second.db
      .select({ id: users.id, email: users.email, name: users.name, city: customers.city })
      .from(users)
      .innerJoin(customers, eq(customers.userId, users.id));
    expect(rows).toEqual([{ id: user.id, email: 'kept@clinic.test', name: 'Kept', city: 'Porto' }]);
    // Re-running the migrations neither re-applied nor duplicated anything.
    expect(await appliedMigrations(second)).toBe(migrationsAfterFirstRun);
    // The next id continues after the kept row (sequences persisted too).
    const { user: next } = await buildCustomer(second.db, { email: 'next@clinic.test' });
    expect(next.id).toBeGreaterThan(user.id);
  } finally {
    await second.close();
  }
}

describe('openDatabase persistence', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  // A new data directory runs PGlite's initdb and every migration from scratch: 15 s alone on the 2-core machine,
  // 55 s beside the other test worker and a busy machine. How long it takes is not what this test checks.
  it('keeps data in the embedded PGlite data directory across a restart', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-persist-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    await checkSurvivesRestart(() => openDatabase({ dataDir }));
    expect(existsSync(path.join(dataDir, 'db'))).toBe(true);
  });

  it("runs the embedded database with small shared buffers and PGlite's own start parameters", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-settings-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const handle = await openDatabase({ dataDir });
    cleanups.push(() => handle.close());
    const setting = async (name: string) => {
      const result = await handle.db.execute(sql`select current_setting(${name}) as value`);
      return (result as unknown as { rows: { value: string }[] }).rows[0]!.value;
    };
    expect(await setting('shared_buffers')).toBe('32MB');
    expect(await setting('search_path')).toBe('public');
    expect(await setting('max_worker_processes')).toBe('0');
  });

  it.runIf(usingPostgres)(
    'keeps data in PostgreSQL across a restart, with migrations safe to run concurrently',
    async () => {
      const templateUrl = new URL(process.env.TEST_DATABASE_URL!);
      const name = `${templateUrl.pathname.slice(1)}_persist_${randomBytes(4).toString('hex')}`;
      const adminUrl = withDatabase(templateUrl, 'postgres');
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      // An empty database, not a copy of the migrated template: migrations run from scratch.
      await admin.query(`create database "${name}"`);
      await admin.end();
      cleanups.push(async () => {
        const dropper = new pg.Client({ connectionString: adminUrl });
        await dropper.connect();
        await dropper.query(`drop database if exists "${name}" with (force)`);
        await dropper.end();
      });
      const url = withDatabase(templateUrl, name);

      // Two instances starting at once both migrate without tripping over each other.
      const [a, b] = await Promise.all([openDatabase({ url }), openDatabase({ url })]);
      try {
        await Promise.all([a.migrate(), b.migrate()]);
        expect(await appliedMigrations(a)).toBe(await appliedMigrations(b));
      } finally {
        await a.close();
        await b.close();
      }

      await checkSurvivesRestart(() => openDatabase({ url }));
    },
  );

  it.runIf(usingPostgres)(
    'outlives the server ending its idle connections (a restart, a failover) and answers the next query',
    async () => {
      const templateUrl = new URL(process.env.TEST_DATABASE_URL!);
      const name = `${templateUrl.pathname.slice(1)}_ended_${randomBytes(4).toString('hex')}`;
      const adminUrl = withDatabase(templateUrl, 'postgres');
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database "${name}" template "${templateUrl.pathname.slice(1)}"`);
      cleanups.push(async () => {
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      });
      const handle = await openDatabase({ url: withDatabase(templateUrl, name) });
      cleanups.push(() => handle.close());
      // Several idle connections in the pool.
      await Promise.all([1, 2, 3].map(() => handle.ping()));

      const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
        name,
      ]);
      expect(ended.rowCount).toBeGreaterThanOrEqual(3);
      // The ended connections hear of it on their sockets; an unheard 'error' would end this process.
      await new Promise((resolve) => setTimeout(resolve, 300));

      await handle.ping();
      const { user } = await buildCustomer(handle.db, { email: 'after@clinic.test' });
      expect(user.email).toBe('after@clinic.test');
    },
  );
});
