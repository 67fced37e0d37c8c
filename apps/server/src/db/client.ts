import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { CHANGES_CHANNEL, DataVersion, watchTransactionWrites, watchWrites } from './data-version.ts';
import * as schema from './schema.ts';

/** One query surface for both drivers: the embedded PGlite and a PostgreSQL server speak the same SQL. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Moves whenever the data may have changed, here or on another instance (caches read it). */
  dataVersion: DataVersion;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Extensions the migrations use; PGlite must load them before they can be created. */
export const PGLITE_EXTENSIONS = { btree_gist };

/**
 * Settings of the embedded PostgreSQL, on top of PGlite's own start parameters. Its shared buffers sit in the
 * WebAssembly heap and are all resident from the start: initdb's 128MB was most of an idle server's memory.
 * Pages that fall out of 32MB are read back from the operating system's file cache, a cheap call.
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, 'migrations');

/** Serialises migrations when several instances start against one PostgreSQL at once. */
const MIGRATION_LOCK_KEY = 73_570_001;

export type DatabaseSource = { url: string; poolSize?: number } | { dataDir: string } | { pglite: PGlite };

/** Connections per instance: the hot reads are served from caches, so this bounds the writes and lists. */
export const DEFAULT_POOL_SIZE = 20;

export async function openDatabase(source: DatabaseSource): Promise<DatabaseHandle> {
  if ('url' in source) return openPostgres(source.url, source.poolSize ?? DEFAULT_POOL_SIZE);
  if ('pglite' in source) return wrapPglite(source.pglite);
  const directory = path.join(source.dataDir, 'db');
  await mkdir(directory, { recursive: true });
  return wrapPglite(
    await PGlite.create(directory, { extensions: PGLITE_EXTENSIONS, startParams: PGLITE_START_PARAMS }),
  );
}

function wrapPglite(client: PGlite): DatabaseHandle {
  // One process owns the data directory: every change is one of ours, seen on the driver.
  const dataVersion = new DataVersion();
  watchWrites(client as unknown as { query: (...args: never[]) => unknown }, dataVersion);
  const transaction = client.transaction.bind(client);
  // Its statements run on the transaction's own handle: the version moves once it has committed, if one of
  // them changed data (the job worker's poll, a transaction every few seconds, mostly changes nothing).
  client.transaction = (async (callback) => {
    let changed = false;
    const result = await transaction((tx) => {
      watchTransactionWrites(tx as unknown as Parameters<typeof watchTransactionWrites>[0], () => (changed = true));
      return callback(tx);
    });
    if (changed) dataVersion.bump();
    return result;
  }) as typeof client.transaction;
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    dataVersion,
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

function openPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server ends (a restart, a failover, an administrator, a dropped database) is an
  // 'error' of the pool; unheard, Node ends the process. The pool has already let that connection go, and the
  // next query opens a new one: nothing is left to do.
  pool.on('error', () => undefined);
  const dataVersion = new DataVersion();
  // This instance's own writes move the version as they finish; their notifications are not news.
  const ownBackends = new Set<number>();
  pool.on('connect', (client) => {
    watchWrites(client as unknown as { query: (...args: never[]) => unknown }, dataVersion);
    const backend = (client as unknown as { processID?: number }).processID;
    if (backend !== undefined) ownBackends.add(backend);
  });
  pool.on('remove', (client) => {
    const backend = (client as unknown as { processID?: number }).processID;
    if (backend !== undefined) ownBackends.delete(backend);
  });
  const changes = listenForChanges(url, dataVersion, ownBackends);
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    dataVersion,
    migrate: async () => {
      const connection = await pool.connect();
      try {
        await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrateNodePg(drizzleNodePg({ client: connection, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        connection.release();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    close: async () => {
      await changes.stop();
      await pool.end();
    },
  };
}

const RECONNECT_FIRST_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/**
 * Hears the changes other instances commit (the triggers of migration 0011 NOTIFY on CHANGES_CHANNEL) on a
 * connection of its own, and moves `version` at each. While that connection is down the version is marked
 * incomplete (caches keep nothing) and it reconnects with a growing pause; back, it moves the version once
 * for whatever it missed.
 */
function listenForChanges(
  url: string,
  version: DataVersion,
  ownBackends: ReadonlySet<number>,
): { stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  let pause = RECONNECT_FIRST_MS;
  let timer: NodeJS.Timeout | undefined;

  const lost = () => {
    version.complete = false;
    version.bump();
    const current = client;
    client = undefined;
    current?.removeAllListeners();
    current?.on('error', () => undefined);
    void current?.end().catch(() => undefined);
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, pause);
    timer.unref();
    pause = Math.min(pause * 2, RECONNECT_MAX_MS);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('notification', (message) => {
      if (!ownBackends.has(message.processId)) version.bump();
    });
    next.on('error', lost);
    next.on('end', () => {
      if (client === next) lost();
    });
    try {
      await next.connect();
      await next.query(`listen ${CHANGES_CHANNEL}`);
      if (stopped) return void (await next.end());
      pause = RECONNECT_FIRST_MS;
      version.complete = true;
      version.bump();
    } catch {
      if (client === next) lost();
    }
  };

  version.complete = false;
  void connect();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      current?.removeAllListeners();
      current?.on('error', () => undefined);
      await current?.end().catch(() => undefined);
    },
  };
}
