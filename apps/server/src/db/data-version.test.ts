import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { mayChangeData } from './data-version.ts';
import { claimDueJobs, enqueueJobs } from '../jobs/job-queue.ts';
import { eq, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { products } from './schema.ts';

describe('mayChangeData', () => {
  it('counts writes, commits and schema changes, whatever their case or leading space', () => {
    for (const statement of [
      'insert into "users" ("name") values ($1)',
      '  UPDATE "sessions" set "revoked_at" = $1',
      'delete from "products" where "id" = $1',
      'commit',
      'COMMIT',
      'end',
      'truncate "appointments"',
      'with moved as (update "appointments" set "status" = $1 returning *) select * from moved',
      'create index "x" on "y" ("z")',
      'update "jobs_archive" set "x" = 1',
    ]) {
      expect(mayChangeData(statement), statement).toBe(true);
    }
  });

  it('does not count reads, transaction starts, rollbacks and the job queue’s own bookkeeping', () => {
    for (const statement of [
      'select "id", "name" from "users" where "updated_at" > $1',
      '\n  SELECT 1',
      'with recent as (select * from "appointments") select * from recent',
      '(select "starts_at" from "calendar_events") union all (select "starts_at" from "calendar_busy_ranges")',
      ' ( (select 1) union (select 2) ) order by 1',
      'begin',
      'rollback',
      'savepoint a',
      'set local statement_timeout = 1000',
      'listen vetcall_changes',
      'update "jobs" set "locked_until" = $1 where "id" = $2',
      'insert into "jobs" ("kind") values ($1)',
      'delete from "jobs" where "finished_at" < $1',
      'insert into "audit_events" ("action") values ($1)',
    ]) {
      expect(mayChangeData(statement), statement).toBe(false);
    }
  });
});

describe('the data version of a database', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
    // With PostgreSQL, other instances' changes are heard once the listening connection is up.
    await vi.waitUntil(() => database.dataVersion.complete, { timeout: 5000 });
  });
  afterEach(async () => {
    await database.release();
  });

  it('moves after a statement that changed rows, and not for reads or changes of nothing', async () => {
    const { db, dataVersion } = database;
    await db.insert(products).values({ designation: { en: 'Ab', pt: 'Ab', 'pt-BR': 'Ab' }, priceCents: 100 });
    const start = dataVersion.current;
    await db.select().from(products);
    // A compound read that finds rows (the slots' busy ranges are one) is still a read.
    const both = await unionAll(
      db.select({ id: products.id }).from(products),
      db.select({ id: products.id }).from(products),
    );
    expect(both).toHaveLength(2);
    await db.update(products).set({ priceCents: 1 }).where(eq(products.id, -1));
    expect(dataVersion.current).toBe(start);
    await db.insert(products).values({ designation: { en: 'Ab', pt: 'Ab', 'pt-BR': 'Ab' }, priceCents: 100 });
    expect(dataVersion.current).toBeGreaterThan(start);
  });

  it('moves for a transaction once it has committed, never in the middle of it, and not for a rollback', async () => {
    const { db, dataVersion } = database;
    let during = -1;
    const before = dataVersion.current;
    await db.transaction(async (tx) => {
      await tx.insert(products).values({ designation: { en: 'Ab', pt: 'Ab', 'pt-BR': 'Ab' }, priceCents: 100 });
      during = dataVersion.current;
    });
    expect(during).toBe(before);
    expect(dataVersion.current).toBeGreaterThan(before);

    const afterCommit = dataVersion.current;
    await expect(
      db.transaction(async (tx) => {
        await tx.update(products).set({ priceCents: 5 });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(dataVersion.current).toBe(afterCommit);
  });

  it('stays for a committed transaction that changed nothing (a job poll that found no work), on either database', async () => {
    const { db, dataVersion } = database;
    const before = dataVersion.current;
    await db.transaction(async (tx) => {
      await tx.select().from(products).for('update', { skipLocked: true });
      await tx.update(products).set({ priceCents: 1 }).where(eq(products.id, -1));
    });
    expect(dataVersion.current).toBe(before);
    // The job queue's own bookkeeping changes rows, but no data a cached read shows.
    await enqueueJobs(db, new Date(), [{ kind: 'noop', payload: {} }]);
    expect(await claimDueJobs(db, new Date(Date.now() + 1000), 5)).toHaveLength(1);
    expect(dataVersion.current).toBe(before);
    // A nested transaction's write moves it once the outer one commits.
    await db.transaction(async (tx) => {
      await tx.transaction(async (inner) => {
        await inner.insert(products).values({ designation: { en: 'Ab', pt: 'Ab', 'pt-BR': 'Ab' }, priceCents: 100 });
      });
      expect(dataVersion.current).toBe(before);
    });
    expect(dataVersion.current).toBeGreaterThan(before);
  });
});

describe('change notifications', () => {
  it('are sent by every table of the data (migration 0011): a new table must join them, or say why not', async () => {
    const database = await createTestDatabase();
    try {
      const result = (await database.db.execute(sql`
        select c.relname as table_name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and not exists (
          select 1 from pg_trigger t join pg_proc p on p.oid = t.tgfoid
          where t.tgrelid = c.oid and p.proname = 'vetcall_notify_change' and (t.tgtype & 1) = 1
        ) order by 1`)) as unknown as { rows: Array<{ table_name: string }> };
      // Row-level (tgtype bit 0) triggers only; the job queue's bookkeeping and the audit log (read by managers
      // only, never cached) are no data a cache shows.
      expect(result.rows.map((row) => row.table_name)).toEqual(['audit_events', 'jobs']);
    } finally {
      await database.release();
    }
  });
});
