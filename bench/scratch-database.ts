/**
 * Where `npm run bench` keeps its data: a fresh embedded database in a temporary directory, or, when
 * DATABASE_URL is set, its own database `vetcall_bench` created on that server and dropped afterwards.
 * No other database is read or written: the one DATABASE_URL names is only used to connect and issue
 * CREATE/DROP DATABASE vetcall_bench. A DATABASE_URL that names a database `vetcall_bench…` itself
 * (vetcall_bench_b) makes that one the scratch database, reached through the server's `postgres` database,
 * so two benches can share a server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
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
  if (!databaseUrl) {
    return {
      kind: 'pglite',
      dataDir,
      appEnvironment: { DATA_DIR: dataDir },
      open: () => openDatabase({ dataDir }),
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const scratchUrl = new URL(databaseUrl);
  const named = decodeURIComponent(scratchUrl.pathname.replace(/^\//, ''));
  const ownName = /^vetcall_bench[a-z0-9_]*$/.test(named);
  const name = ownName ? named : SCRATCH_DATABASE_NAME;
  const serverUrl = new URL(databaseUrl);
  if (ownName) serverUrl.pathname = '/postgres';
  scratchUrl.pathname = `/${name}`;
  // Left over by an interrupted run: it is the bench's own.
  await onServer(serverUrl.href, `drop database if exists ${name} with (force)`);
  await onServer(serverUrl.href, `create database ${name}`);
  return {
    kind: 'postgres',
    dataDir,
    appEnvironment: { DATA_DIR: dataDir, DATABASE_URL: scratchUrl.href },
    open: () => openDatabase({ url: scratchUrl.href }),
    dispose: async () => {
      await onServer(serverUrl.href, `drop database if exists ${name} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
