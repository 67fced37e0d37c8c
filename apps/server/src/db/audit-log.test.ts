import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { buildAppointment, buildCustomer, buildPet, buildVet } from '../demo-data/factories.ts';
import { transitionAppointment } from './appointment-transition.ts';
import { recordAudit } from './audit-log.ts';
import { auditEvents } from './schema.ts';

const NOW = new Date('2026-11-20T10:00:00Z');

describe('the audit log table (docs/audit-log.md)', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.release();
  });

  it('is append-only: updates, deletes and truncates are refused by the database', async () => {
    const { db } = database;
    await recordAudit(db, { actor: { email: 'x@clinic.test' }, action: 'auth.login_failed', at: NOW });
    // Drizzle wraps the database's error: the trigger's own message is the cause.
    const refused = (attempt: Promise<unknown>) =>
      expect(attempt).rejects.toMatchObject({ cause: { message: expect.stringMatching(/append-only/) } });
    await refused(db.update(auditEvents).set({ actorEmail: 'someone-else@clinic.test' }));
    await refused(db.delete(auditEvents));
    await refused(db.execute(sql`truncate audit_events`));
    expect(await db.select({ email: auditEvents.actorEmail }).from(auditEvents)).toEqual([{ email: 'x@clinic.test' }]);
  });

  it("takes where the request came from from its actor, and nothing for the system's", async () => {
    const { db } = database;
    const origin = { ip: '198.51.100.7', userAgent: 'Test/1' };
    await recordAudit(db, { actor: { email: 'x@clinic.test', origin }, action: 'export.vets', at: NOW });
    await recordAudit(db, { actor: null, action: 'export.managers', at: NOW });
    const rows = await db
      .select({ action: auditEvents.action, ip: auditEvents.ip, userAgent: auditEvents.userAgent })
      .from(auditEvents)
      .orderBy(auditEvents.id);
    expect(rows).toEqual([
      { action: 'export.vets', ip: '198.51.100.7', userAgent: 'Test/1' },
      { action: 'export.managers', ip: null, userAgent: null },
    ]);
  });

  it('records an appointment transition with its actor, and loses it with the transaction’s rollback', async () => {
    const { db } = database;
    const vet = await buildVet(db);
    const customer = await buildCustomer(db);
    const pet = await buildPet(db, customer.customer.id);
    const appointment = await buildAppointment(
      db,
      { vetUserId: vet.user.id, customerUserId: customer.user.id, petId: pet.id },
      { status: 'TK_Requested' },
    );
    const by = { userId: vet.user.id, type: 'vet' as const, email: vet.user.email };
    await expect(
      db.transaction(async (tx) => {
        await transitionAppointment(tx, appointment.id, 'TK_Canceled', NOW, by);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.select().from(auditEvents)).toEqual([]);

    await transitionAppointment(db, appointment.id, 'TK_Confirmed', NOW, by);
    // Refused moves (already there) record nothing.
    await transitionAppointment(db, appointment.id, 'TK_Confirmed', NOW, by);
    expect(
      await db
        .select({
          action: auditEvents.action,
          actorUserId: auditEvents.actorUserId,
          actorRole: auditEvents.actorRole,
          subjectId: auditEvents.subjectId,
        })
        .from(auditEvents)
        .where(eq(auditEvents.subjectType, 'appointment')),
    ).toEqual([
      { action: 'appointment.confirmed', actorUserId: vet.user.id, actorRole: 'vet', subjectId: appointment.id },
    ]);
  });
});
