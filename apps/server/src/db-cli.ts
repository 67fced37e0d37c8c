/** `npm run db:migrate | db:seed | db:reset` — the same steps the server runs at start, on demand. */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createSecrets } from './secrets.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './demo-data/seed.ts';
import { sql } from 'drizzle-orm';

const command = process.argv[2];
const config = loadConfig();

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

if (!['migrate', 'seed', 'reset'].includes(command ?? '')) {
  console.error('usage: cli.ts migrate|seed|reset');
  process.exit(2);
}
run().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
