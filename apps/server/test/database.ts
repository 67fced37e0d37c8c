import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import {
  type Database,
  type DatabaseHandle,
  MIGRATIONS_FOLDER,
  openDatabase,
  PGLITE_EXTENSIONS,
} from '../src/db/client.ts';

/**
 * Test databases. On PGlite, a migrated data directory is made once (initdb costs seconds) and kept
 * as a tarball in the OS temp directory, keyed by the migrations and the PGlite version, so later test
 * files and runs only load it. With TEST_DATABASE_URL, the global setup has migrated that database and
 * a new test database is a `CREATE DATABASE … TEMPLATE` copy of it on the real server.
 *
 * Either way a new database costs a few hundred milliseconds, so a test usually gets instead one that
 * an earlier test of the same file released, emptied (emptyDatabase): the same tables, rows and id
 * sequences as a new copy.
 */
let pgliteDump: Promise<Blob> | undefined;

async function migratedPgliteDump(): Promise<Blob> {
  pgliteDump ??= (async () => {
    const fingerprint = createHash('sha256');
    // PGlite's own version: its package.json is not exported, so it is read beside its entry point.
    const pgliteEntry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
    fingerprint.update(await readFile(path.join(path.dirname(pgliteEntry), '..', 'package.json')));
    for (const file of (await readdir(MIGRATIONS_FOLDER, { recursive: true })).sort()) {
      if (!file.endsWith('.sql') && !file.endsWith('.json')) continue;
      fingerprint.update(file).update(await readFile(path.join(MIGRATIONS_FOLDER, file)));
    }
    const cacheFile = path.join(tmpdir(), `vetcall-pglite-${fingerprint.digest('hex').slice(0, 16)}.tar`);
    const cached = await readFile(cacheFile).catch(() => undefined);
    if (cached) return new Blob([cached]);

    const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
    await (await openDatabase({ pglite: client })).migrate();
    const dump = await client.dumpDataDir('none');
    await client.close();
    // Written aside then renamed, so a parallel test file never reads half a tarball.
    const partial = `${cacheFile}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, cacheFile);
    return dump;
  })();
  return pgliteDump;
}

/** The application tables (the migrations journal in the `drizzle` schema is not one), read once per database. */
const tablesOf = new WeakMap<Database, Promise<string[]>>();

/**
 * Empties every application table and restarts every sequence: what a new copy of the migrated database holds.
 * Rows are deleted, not truncated, with foreign key triggers off (all rows go anyway), and only from the tables
 * that have any: a TRUNCATE makes new files for each table and index, which cost most of a short test's time.
 */
async function emptyDatabase(db: Database): Promise<void> {
  let tables = tablesOf.get(db);
  if (!tables) {
    tables = db
      .execute(sql`select quote_ident(tablename) as name from pg_tables where schemaname = 'public' order by 1`)
      .then((result) => (result as unknown as { rows: { name: string }[] }).rows.map((row) => row.name));
    tablesOf.set(db, tables);
  }
  const names = await tables;
  if (names.length === 0) return;
  const filled = await db.execute(
    sql.raw(names.map((name) => `select '${name}' as name where exists (select 1 from ${name})`).join(' union all ')),
  );
  const toEmpty = (filled as unknown as { rows: { name: string }[] }).rows.map((row) => row.name);
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    for (const name of toEmpty) await tx.execute(sql.raw(`delete from ${name}`));
    await tx.execute(sql`
      select setval(s.seqrelid, s.seqstart, false)
      from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public'`);
  });
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * A database handle for one test. `close()` really closes it (a test may do so to simulate an outage);
 * `release()` is the end-of-test teardown: it hands the still-open database on to the next test of
 * the file. Both may be called more than once, in any order.
 */
export interface TestDatabase extends DatabaseHandle {
  release(): Promise<void>;
  /** Empties it in place, as a new copy would be: for a holder that keeps it from test to test. */
  empty(): Promise<void>;
  /** Whether close() ran (a test simulating an outage): a closed database cannot be kept for the next test. */
  readonly closed: boolean;
}

interface PooledDatabase {
  handle: DatabaseHandle;
  /** Closes the handle and, on PostgreSQL, drops the database; idempotent. */
  destroy(): Promise<void>;
  destroyed: boolean;
}

/** Released, still open databases of this test file, waiting to be emptied and reused. */
const spareDatabases: PooledDatabase[] = [];

async function newPgliteDatabase(): Promise<PooledDatabase> {
  const client = await PGlite.create({ loadDataDir: await migratedPgliteDump(), extensions: PGLITE_EXTENSIONS });
  const handle = await openDatabase({ pglite: client });
  const pooled: PooledDatabase = {
    handle,
    destroyed: false,
    destroy: async () => {
      pooled.destroyed = true;
      await handle.close();
    },
  };
  return pooled;
}

async function newPostgresDatabase(templateUrl: string): Promise<PooledDatabase> {
  const url = new URL(templateUrl);
  const templateName = url.pathname.slice(1);
  // The global teardown drops every database named `<template>_…` that a test file left behind.
  const name = `${templateName}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${templateName}"`);
  } finally {
    await admin.end();
  }
  const handle = await openDatabase({ url: withDatabase(url, name) });
  let destroying: Promise<void> | undefined;
  const pooled: PooledDatabase = {
    handle,
    destroyed: false,
    destroy: () => {
      pooled.destroyed = true;
      destroying ??= (async () => {
        await handle.close();
        const dropper = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
        await dropper.connect();
        await dropper.query(`drop database if exists "${name}" with (force)`).catch(() => undefined);
        await dropper.end();
      })();
      return destroying;
    },
  };
  return pooled;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  let pooled = spareDatabases.pop();
  while (pooled?.destroyed) pooled = spareDatabases.pop();
  if (pooled) await emptyDatabase(pooled.handle.db);
  else {
    const templateUrl = process.env.TEST_DATABASE_URL;
    pooled = templateUrl ? await newPostgresDatabase(templateUrl) : await newPgliteDatabase();
  }
  const database = pooled;
  let released = false;
  return {
    ...database.handle,
    // Once released, the database may already serve another test: closing it is then not ours to do.
    close: async () => {
      if (!released) await database.destroy();
    },
    release: async () => {
      if (released || database.destroyed) return;
      released = true;
      spareDatabases.push(database);
    },
    empty: () => emptyDatabase(database.handle.db),
    get closed() {
      return database.destroyed;
    },
  };
}

export function withDatabase(url: URL, database: string): string {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  return copy.toString();
}
