import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { buildCustomer } from './factories.ts';
import { openPins } from '../modules/appointments/pins.ts';
import { appointments, calendarEvents, customers, managers, users, vets } from '../db/schema.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './seed.ts';

describe('seedDemoData', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const count = async (table: typeof users | typeof customers | typeof vets | typeof managers) => {
    const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(table);
    return row!.n;
  };

  it('creates the four demo accounts, each able to log in as its type, and only once', async () => {
    expect(DEMO_PASSWORD).toBe('vetcall-demo');
    expect(await seedDemoData(t.db)).toBe(true);

    const expected = [
      ['manager@vetcall.test', 'manager'],
      ['vet@vetcall.test', 'vet'],
      ['vet2@vetcall.test', 'vet'],
      ['customer@vetcall.test', 'customer'],
    ] as const;
    expect(DEMO_ACCOUNTS.map((account) => [account.email, account.type])).toEqual(expected);
    const rows = await t.db.select({ email: users.email, type: users.type, active: users.active }).from(users);
    expect(rows.map((row) => [row.email, row.type]).sort()).toEqual([...expected].sort());
    expect(rows.every((row) => row.active)).toBe(true);
    // Each has its role row.
    expect([await count(managers), await count(vets), await count(customers)]).toEqual([1, 2, 1]);

    for (const [email, type] of expected) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { email, password: 'vetcall-demo' },
      });
      expect(response.statusCode, email).toBe(200);
      expect(response.json().type, email).toBe(type);
      expect(response.json().user.email).toBe(email);
    }

    expect(await seedDemoData(t.db)).toBe(false);
    expect(await count(users)).toBe(4);
    expect([await count(managers), await count(vets), await count(customers)]).toEqual([1, 2, 1]);
  });

  it('seeds once when two instances start together on an empty database (the second waits, then finds users)', async () => {
    // Both start before either has committed: without the lock both counted no users and one hit a unique email.
    const results = await Promise.all([
      seedDemoData(t.db, { secrets: t.context.secrets }),
      seedDemoData(t.db, { secrets: t.context.secrets }),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect(await count(users)).toBe(4);
    expect(await t.db.select({ id: appointments.id }).from(appointments)).toHaveLength(2);
  });

  it('creates nothing when the database already has users', async () => {
    await buildCustomer(t.db, { email: 'real@clinic.test' });
    expect(await seedDemoData(t.db)).toBe(false);
    expect(await count(users)).toBe(1);
    const demo = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: 'manager@vetcall.test', password: 'vetcall-demo' },
    });
    expect(demo.statusCode).toBe(401);
  });

  it('books a confirmed and a completed demo appointment when given the server secrets', async () => {
    // Saturday 21 November 2026: the next working day is Monday the 23rd.
    const now = new Date('2026-11-21T12:00:00Z');
    expect(await seedDemoData(t.db, { secrets: t.context.secrets, now })).toBe(true);
    const rows = await t.db.select().from(appointments).orderBy(appointments.schedule);
    expect(rows.map((row) => [row.status, row.schedule.toISOString()])).toEqual([
      ['TK_Completed', '2026-11-09T10:00:00.000Z'],
      ['TK_Confirmed', '2026-11-23T11:00:00.000Z'],
    ]);
    const confirmed = rows[1]!;
    const pins = openPins(t.context.secrets, confirmed.pinCipher!);
    expect(pins.customer).toMatch(/^\d{6}$/);
    expect(pins.vet).not.toBe(pins.customer);
    expect(JSON.stringify(confirmed)).not.toContain(pins.customer);
    // Each holds its time in the vet's calendar.
    const events = await t.db.select().from(calendarEvents);
    expect(events.map((event) => [event.kind, event.appointmentId]).sort()).toEqual(
      [
        ['booking', rows[0]!.id],
        ['booking', rows[1]!.id],
      ].sort(),
    );
  });
});
