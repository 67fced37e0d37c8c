/**
 * `npm run db:migrate | db:seed | db:reset` — the same steps the server runs at start, on demand — and
 * `npm run db:backup -- <file>` · `npm run db:restore -- <file> [--force]` (db/backup.ts).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createSecrets } from './secrets.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './demo-data/seed.ts';
import { sql } from 'drizzle-orm';
import { backupDatabase, restoreDatabase } from './db/backup.ts';
import { localFilesDir } from './providers/storage/create-file-store.ts';

// npm runs workspace scripts in apps/server: paths given on the command line (the backup file, a relative
// DATA_DIR) mean what they meant where npm was started, as for `npm start`.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
const [command, fileArgument, ...flags] = process.argv.slice(2);
const config = loadConfig();

async function backupOrRestore() {
  if (!fileArgument)
    throw new Error(`usage: npm run db:${command} -- <file>${command === 'restore' ? ' [--force]' : ''}`);
  const file = path.resolve(fileArgument);
  const filesDir = localFilesDir(config);
  if (config.storage.kind === 's3') {
    console.log(
      'STORAGE=s3: attachments live in the bucket, not in this file; back the bucket up with its own versioning.',
    );
  }
  const handle = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    if (command === 'backup') {
      await handle.migrate();
      const manifest = await backupDatabase(handle, { file, filesDir });
      const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
      console.log(
        `Backup written to ${file}: ${rows} rows in ${manifest.tables.length} tables, ${manifest.files} files.`,
      );
    } else {
      const manifest = await restoreDatabase(handle, { file, filesDir, force: flags.includes('--force') });
      const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
      console.log(`Restored ${file} (taken ${manifest.createdAt}): ${rows} rows, ${manifest.files} files.`);
    }
  } finally {
    await handle.close();
  }
}

async function run() {
  if (command === 'reset') {
    if (config.isProduction) throw new Error('db:reset refuses to run with NODE_ENV=production');
    if (config.databaseUrl) {
      const handle = await openDatabase({ url: config.databaseUrl });
      await handle.db.execute(sql`drop schema if exists public cascade`);
      await handle.db.execute(sql`drop schema if exists drizzle cascade`);
      await handle.db.execute(sql`create schema public`);
      await handle.close();
    } else {
      await rm(path.join(config.dataDir, 'db'), { recursive: true, force: true });
    }
    console.log('Database emptied.');
  }
  const handle = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    await handle.migrate();
    console.log('Migrations applied.');
    if (command === 'seed' || command === 'reset') {
      if (config.isProduction) throw new Error('demo data is never created with NODE_ENV=production');
      const seeded = await seedDemoData(handle.db, { secrets: createSecrets(config) });
      console.log(
        seeded ? `Demo data created (password ${DEMO_PASSWORD}):` : 'Database already has users; seed skipped.',
      );
      if (seeded) for (const account of DEMO_ACCOUNTS) console.log(`  ${account.type.padEnd(8)} ${account.email}`);
    }
  } finally {
    await handle.close();
  }
}

if (!['migrate', 'seed', 'reset', 'backup', 'restore'].includes(command ?? '')) {
  console.error('usage: db-cli migrate|seed|reset|backup <file>|restore <file> [--force]');
  process.exit(2);
}
(command === 'backup' || command === 'restore' ? backupOrRestore() : run()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
