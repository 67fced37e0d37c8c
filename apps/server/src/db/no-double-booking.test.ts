import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import type { Database } from './client.ts';
import { buildCustomer, buildVet } from '../demo-data/factories.ts';
import { calendarEvents } from './schema.ts';
import { sqlState as sqlStateOf } from './sql-state.ts';

/** The exclusion constraint of migration 0004, on whichever database the suite runs. */
describe('no double booking (calendar_events_no_overlap)', () => {
  let database: TestDatabase;
  let db: Database;
  let vetUserId: number;
  let otherVetUserId: number;
  let customerUserId: number;

  beforeEach(async () => {
    database = await createTestDatabase();
    db = database.db;
    vetUserId = (await buildVet(db)).user.id;
    otherVetUserId = (await buildVet(db)).user.id;
    customerUserId = (await buildCustomer(db)).user.id;
  });
  afterEach(async () => {
    await database.release();
  });

  const at = (time: string) => new Date(`2026-12-01T${time}:00Z`);
  const entry = (start: string, end: string, overrides: Partial<typeof calendarEvents.$inferInsert> = {}) => ({
    eventId: randomBytes(12).toString('base64url'),
    vetUserId,
    customerUserId,
    kind: 'hold' as const,
    startsAt: at(start),
    endsAt: at(end),
    expiresAt: new Date('2026-12-01T08:15:00Z'),
    ...overrides,
  });

  /** The SQLSTATE a statement fails with, or undefined when it succeeds. */
  async function sqlState(work: Promise<unknown>): Promise<string | undefined> {
    return work.then(
      () => undefined,
      (error: unknown) => sqlStateOf(error),
    );
  }

  it('refuses a live entry that overlaps another of the same vet', async () => {
    await db.insert(calendarEvents).values(entry('10:00', '10:30'));
    expect(await sqlState(db.insert(calendarEvents).values(entry('10:15', '10:45')))).toBe('23P01');
    expect(
      await sqlState(db.insert(calendarEvents).values(entry('09:00', '12:00', { kind: 'booking', expiresAt: null }))),
    ).toBe('23P01');
  });

  it('allows touching ranges, other vets, and time given back', async () => {
    await db.insert(calendarEvents).values(entry('10:00', '10:30'));
    await db.insert(calendarEvents).values(entry('10:30', '11:00'));
    await db.insert(calendarEvents).values(entry('09:30', '10:00'));
    await db.insert(calendarEvents).values(entry('10:00', '10:30', { vetUserId: otherVetUserId }));
    await db.insert(calendarEvents).values(entry('11:00', '11:30', { releasedAt: new Date() }));
    await db.insert(calendarEvents).values(entry('11:00', '11:30'));
    expect(await db.$count(calendarEvents)).toBe(6);
  });

  it('refuses an entry that ends before it starts, and a hold without expiry', async () => {
    expect(await sqlState(db.insert(calendarEvents).values(entry('10:30', '10:00')))).toBe('23514');
    expect(await sqlState(db.insert(calendarEvents).values(entry('10:00', '10:30', { expiresAt: null })))).toBe(
      '23514',
    );
  });

  it('lets exactly one of many simultaneous claims on one slot through', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 25 }, () => db.insert(calendarEvents).values(entry('14:00', '14:30'))),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
    expect(await db.$count(calendarEvents)).toBe(1);
  });
});
