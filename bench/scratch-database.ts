/**
 * Where `npm run bench` keeps its data: a fresh embedded database in a temporary directory, or, when
 * DATABASE_URL is set, its own database `vetcall_bench` created on that server and dropped afterwards.
 * No other database is read or written: the one DATABASE_URL names is only used to connect and issue
 * CREATE/DROP DATABASE vetcall_bench. A DATABASE_URL that names a database `vetcall_bench…` itself
 * (vetcall_bench_b) makes that one the scratch database, reached through the server's `postgres` database,
 * so two benches can share a server. `copy()` makes a second scratch database holding the same data (a
 * copy of the embedded database's files, or `create database … template …`), disposed of with the first.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../apps/server/src/db/client.ts';

export const SCRATCH_DATABASE_NAME = 'vetcall_bench';

export interface ScratchDatabase {
  kind: 'pglite' | 'postgres';
  /** Where the bench's own files go (the app's DATA_DIR: its mail outbox, attachments). */
  dataDir: string;
  /** The environment that points the application at this database. */
  appEnvironment: Record<string, string>;
  /** Opens it in this process (PGlite allows one process at a time: close before the app starts). */
  open(): Promise<DatabaseHandle>;
  /** A second scratch database with this one's data as it is now (nothing may have it open). */
  copy(): Promise<ScratchDatabase>;
  dispose(): Promise<void>;
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(databaseUrl: string | undefined): Promise<ScratchDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vetcall-bench-'));
  if (!databaseUrl) return embedded(dataDir);
  const named = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  const ownName = /^vetcall_bench[a-z0-9_]*$/.test(named);
  const name = ownName ? named : SCRATCH_DATABASE_NAME;
  const serverUrl = new URL(databaseUrl);
  if (ownName) serverUrl.pathname = '/postgres';
  // Left over by an interrupted run: it is the bench's own.
  await onServer(serverUrl.href, `drop database if exists ${name} with (force)`);
  await onServer(serverUrl.href, `create database ${name}`);
  return onPostgres(serverUrl, name, dataDir);
}

function embedded(dataDir: string): ScratchDatabase {
  const copies: ScratchDatabase[] = [];
  return {
    kind: 'pglite',
    dataDir,
    appEnvironment: { DATA_DIR: dataDir },
    open: () => openDatabase({ dataDir }),
    copy: async () => {
      const copyDir = await mkdtemp(path.join(tmpdir(), 'vetcall-bench-'));
      await cp(path.join(dataDir, 'db'), path.join(copyDir, 'db'), { recursive: true });
      const copy = embedded(copyDir);
      copies.push(copy);
      return copy;
    },
    dispose: async () => {
      await Promise.all(copies.map((copy) => copy.dispose()));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function onPostgres(serverUrl: URL, name: string, dataDir: string): ScratchDatabase {
  const scratchUrl = new URL(serverUrl);
  scratchUrl.pathname = `/${name}`;
  const copies: ScratchDatabase[] = [];
  return {
    kind: 'postgres',
    dataDir,
    appEnvironment: { DATA_DIR: dataDir, DATABASE_URL: scratchUrl.href },
    open: () => openDatabase({ url: scratchUrl.href }),
    copy: async () => {
      const copyName = `${name}_copy${copies.length + 1}`;
      await onServer(serverUrl.href, `drop database if exists ${copyName} with (force)`);
      await onServer(serverUrl.href, `create database ${copyName} template ${name}`);
      const copy = onPostgres(serverUrl, copyName, await mkdtemp(path.join(tmpdir(), 'vetcall-bench-')));
      copies.push(copy);
      return copy;
    },
    dispose: async () => {
      await Promise.all(copies.map((copy) => copy.dispose()));
      await onServer(serverUrl.href, `drop database if exists ${name} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
