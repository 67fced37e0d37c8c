import { readdir } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CUSTOMER_UPLOAD_BYTES } from '@vetcall/shared/constants';
import type { AppointmentData } from '@vetcall/shared/schemas/booking';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildHold, buildManager, buildPet, buildVet } from '../../demo-data/factories.ts';
import { accessCodes, appointmentFiles, appointments, calendarEvents, products } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import type { LocalFileStore } from '../../providers/storage/local-file-store.ts';
import { sweepFileStore } from '../../providers/storage/file-store-sweep.ts';

/** Monday 12 January 2026, 10:10 in Lisbon (UTC+0 in winter). */
const NOW = '2026-01-12T10:10:00Z';
const SLOT = '2026-01-12T11:00:00.000Z';
const MINUTE_MS = 60_000;
const PASSWORD = 'secret-pass';

type Headers = Record<string, string>;
interface FilePart {
  name: string;
  content: Buffer;
  field?: string;
}

const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(Math.max(0, size - 9), 0x20)]);
const elf = () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(100)]);

/** A multipart body as a browser's FormData sends it: appointment_data (JSON text) and files[]. */
async function multipartBody(data: unknown, files: FilePart[] = [], options: { dataLast?: boolean } = {}) {
  const form = new FormData();
  const appendData = () => {
    if (data !== undefined) form.append('appointment_data', typeof data === 'string' ? data : JSON.stringify(data));
  };
  if (!options.dataLast) appendData();
  for (const file of files) form.append(file.field ?? 'files[]', new Blob([new Uint8Array(file.content)]), file.name);
  if (options.dataLast) appendData();
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}

/**
 * Rui (Lisbon, weekdays 09:00–12:00, 15% discount), Sara (no discount), the 25.00 EUR video
 * consultation, two customers with a pet each (Ana also has an archived one), a manager, and access codes.
 */
async function buildWorld(t: TestApp) {
  const weekdays = [1, 2, 3, 4, 5].map((dayOfWeek) => ({
    dayOfWeek,
    workingIntervals: [{ start: '09:00', end: '12:00' }],
  }));
  const rui = await buildVet(t.db, {
    email: 'rui@clinic.test',
    password: PASSWORD,
    discount: 15,
    profile: { timezone: 'Europe/Lisbon', daySchedules: weekdays },
  });
  const sara = await buildVet(t.db, { profile: { timezone: 'Europe/Lisbon', daySchedules: weekdays } });
  await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD });
  const ana = await buildCustomer(t.db, { email: 'ana@example.test', password: PASSWORD, locale: 'en' });
  const bia = await buildCustomer(t.db, { email: 'bia@example.test', password: PASSWORD, locale: 'pt' });
  const anaPet = await buildPet(t.db, ana.customer.id, { name: 'Bolinha' });
  const anaOldPet = await buildPet(t.db, ana.customer.id, { archivedAt: new Date('2025-06-01T00:00:00Z') });
  const biaPet = await buildPet(t.db, bia.customer.id);
  await t.db.insert(products).values({
    designation: { en: 'Video consultation', pt: 'Consulta por vídeo', 'pt-BR': 'Consulta por vídeo' },
    priceCents: 2500,
  });
  const codes = await t.db
    .insert(accessCodes)
    .values([
      { code: 'FREE-2026', included: true, validFrom: '2026-01-01', validTo: '2026-12-31' },
      { code: 'NORMAL-2026', included: false, validFrom: '2026-01-01', validTo: '2026-12-31' },
      { code: 'FREE-2025', included: true, validFrom: '2025-01-01', validTo: '2025-12-31' },
      {
        code: 'FREE-OFF',
        included: true,
        validFrom: '2026-01-01',
        validTo: '2026-12-31',
        disabledAt: new Date('2026-01-02T00:00:00Z'),
      },
    ])
    .returning();
  return {
    rui,
    sara,
    ana: { ...ana, pet: anaPet, oldPet: anaOldPet, headers: (await t.loginAs('ana@example.test', PASSWORD)).headers },
    bia: { ...bia, pet: biaPet, headers: (await t.loginAs('bia@example.test', PASSWORD)).headers },
    vet: (await t.loginAs('rui@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
    freeCodeId: codes[0]!.id,
    normalCodeId: codes[1]!.id,
  };
}
type World = Awaited<ReturnType<typeof buildWorld>>;

describe('appointments: booking', () => {
  let t: TestApp;
  let w: World;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  /** Ana's hold on Rui's 11:00 (or another), straight into the table. */
  const holdFor = (
    customer: { user: { id: number } } = w.ana,
    overrides: Partial<Parameters<typeof buildHold>[1]> = {},
  ) =>
    buildHold(t.db, {
      vetUserId: w.rui.user.id,
      customerUserId: customer.user.id,
      startsAt: SLOT,
      expiresAt: new Date(new Date(NOW).getTime() + 15 * MINUTE_MS),
      ...overrides,
    });

  const dataFor = (eventId: string, overrides: Partial<AppointmentData> = {}): AppointmentData => ({
    customer_user_id: w.ana.user.id,
    pet_id: w.ana.pet.id,
    vet_user_id: w.rui.user.id,
    description: '  Limping on the left hind leg since yesterday.  ',
    schedule: SLOT,
    calendar_event_id: eventId,
    timezone_diff: 3600,
    vet_observations: '',
    // Access codes are on (the default): a booking carries one; NORMAL-2026 leaves the price as it is.
    access_code: 'NORMAL-2026',
    ...overrides,
  });

  const create = async (
    headers: Headers,
    data: unknown,
    files: FilePart[] = [],
    options: { dataLast?: boolean } = {},
  ) => {
    const body = await multipartBody(data, files, options);
    return t.app.inject({
      method: 'POST',
      url: '/api/appointments',
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };

  const store = () => t.context.files as LocalFileStore;
  const filesOnDisk = async () => ({
    stored: (await readdir(store().root).catch(() => [])).filter((name) => name !== 'tmp'),
    temp: await readdir(store().tempDir).catch(() => []),
  });
  const nothingKept = async () => {
    expect(await filesOnDisk()).toEqual({ stored: [], temp: [] });
    expect(await t.db.select().from(appointments)).toEqual([]);
    expect(await t.db.select().from(appointmentFiles)).toEqual([]);
  };
  const eventOf = async (id: number) => (await t.db.select().from(calendarEvents).where(eq(calendarEvents.id, id)))[0]!;

  it('turns the customer’s hold into an appointment awaiting payment, with its files, in one go', async () => {
    // The hold made the real way, through the scheduling API.
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/scheduling/holds',
      headers: w.ana.headers,
      payload: { vet_id: w.rui.vet.id, profile_id: w.rui.profile.id, start: SLOT },
    });
    expect(held.statusCode).toBe(201);
    const eventId = held.json<{ event_id: string }>().event_id;

    const response = await create(w.ana.headers, dataFor(eventId), [
      { name: 'lab results.pdf', content: pdf(300_000) },
      { name: 'notes.txt', content: Buffer.from('Eats well; limps after walks.\n') },
    ]);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      appointment_hash: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      payment_hash: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      price_cents: 2125,
      item_name: 'Video consultation',
      included: false,
    });
    expect(body.payment_hash).not.toBe(body.appointment_hash);

    const [appointment] = await t.db.select().from(appointments);
    expect(appointment).toMatchObject({
      hash: body.appointment_hash,
      paymentHash: body.payment_hash,
      customerUserId: w.ana.user.id,
      petId: w.ana.pet.id,
      vetUserId: w.rui.user.id,
      description: 'Limping on the left hind leg since yesterday.',
      vetObservations: '',
      schedule: new Date(SLOT),
      durationMinutes: 30,
      status: 'TK_PendingPayment',
      statusDate: new Date(NOW),
      priceCents: 2125,
      itemName: 'Video consultation',
      calendarEventId: eventId,
      timezoneDiff: 3600,
      accessCodeId: w.normalCodeId,
      paidAt: null,
    });
    // The hold now belongs to the appointment and waits PAYMENT_WINDOW_MINUTES for the payment.
    const [event] = await t.db.select().from(calendarEvents).where(eq(calendarEvents.eventId, eventId));
    expect(event).toMatchObject({
      kind: 'hold',
      appointmentId: appointment!.id,
      releasedAt: null,
      expiresAt: new Date(new Date(NOW).getTime() + 30 * MINUTE_MS),
    });
    const files = await t.db.select().from(appointmentFiles).orderBy(appointmentFiles.id);
    expect(files.map((file) => [file.fileName, file.fileType, file.fileSize, file.uploadedByUserId])).toEqual([
      ['lab results.pdf', 'application/pdf', 300_000, w.ana.user.id],
      ['notes.txt', 'text/plain', 30, w.ana.user.id],
    ]);
    expect(files.every((file) => file.appointmentId === appointment!.id)).toBe(true);
    expect((await filesOnDisk()).stored.sort()).toEqual(files.map((file) => file.storageKey).sort());

    // Past the hold's own 15 minutes the slot is still taken (by the payment window), and the customer
    // cannot give the hold back any more.
    clock.advance(20 * MINUTE_MS);
    const slots = await t.app.inject({
      method: 'GET',
      url: `/api/vets/${w.rui.vet.id}/slots?from=2026-01-12&to=2026-01-12`,
      headers: w.ana.headers,
    });
    expect(slots.json<{ start: string }[]>().map((slot) => slot.start)).not.toContain(SLOT);
    const released = await t.app.inject({
      method: 'DELETE',
      url: `/api/scheduling/holds/${eventId}`,
      headers: w.ana.headers,
    });
    expect(released.statusCode).toBe(404);
  });

  it('prices in the customer’s language, and at 0 with an included access code', async () => {
    const biaHold = await holdFor(w.bia, { vetUserId: w.sara.user.id });
    const biaResponse = await create(
      w.bia.headers,
      dataFor(biaHold.eventId, {
        customer_user_id: w.bia.user.id,
        pet_id: w.bia.pet.id,
        vet_user_id: w.sara.user.id,
        access_code: ' normal-2026 ',
      }),
    );
    expect(biaResponse.statusCode).toBe(201);
    expect(biaResponse.json()).toMatchObject({ price_cents: 2500, item_name: 'Consulta por vídeo', included: false });

    const hold = await holdFor();
    const response = await create(w.ana.headers, dataFor(hold.eventId, { access_code: 'free-2026' }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ price_cents: 0, included: true, item_name: 'Video consultation' });
    const rows = await t.db.select().from(appointments).orderBy(appointments.id);
    expect(rows.map((row) => [row.priceCents, row.accessCodeId])).toEqual([
      [2500, w.normalCodeId],
      [0, w.freeCodeId],
    ]);
  });

  it.each([
    ['an unknown', 'NOPE-2026'],
    ['an expired', 'FREE-2025'],
    ['a disabled', 'FREE-OFF'],
  ])('refuses %s access code with 400 invalid_access_code and books nothing', async (_case, code) => {
    const hold = await holdFor();
    const response = await create(w.ana.headers, dataFor(hold.eventId, { access_code: code }), [
      { name: 'a.pdf', content: pdf(1000) },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_access_code', fields: { access_code: 'invalid_value' } });
    await nothingKept();
    expect((await eventOf(hold.id)).appointmentId).toBeNull();
  });

  it('needs an access code while access codes are on: 400 invalid_access_code, access_code required', async () => {
    const hold = await holdFor();
    for (const code of [undefined, '   ']) {
      const response = await create(w.ana.headers, dataFor(hold.eventId, { access_code: code }), [
        { name: 'a.pdf', content: pdf(1000) },
      ]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_access_code', fields: { access_code: 'required' } });
    }
    await nothingKept();
    expect((await eventOf(hold.id)).appointmentId).toBeNull();
  });

  it('admits customers only: 401 without a session, 403 for a vet or a manager', async () => {
    const hold = await holdFor();
    const anonymous = await create({}, dataFor(hold.eventId));
    expect(anonymous.statusCode).toBe(401);
    for (const headers of [w.vet, w.manager]) {
      const response = await create(headers, dataFor(hold.eventId), [{ name: 'a.pdf', content: pdf(1000) }]);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: 'forbidden' });
    }
    await nothingKept();
  });

  it('books only for the session’s customer and their own live pet', async () => {
    const hold = await holdFor();
    const cases: [Partial<AppointmentData>, number, string][] = [
      [{ customer_user_id: w.bia.user.id }, 403, 'forbidden'],
      [{ pet_id: w.bia.pet.id }, 403, 'forbidden'],
      [{ pet_id: 999_999 }, 404, 'not_found'],
      [{ pet_id: w.ana.oldPet.id }, 404, 'not_found'],
    ];
    for (const [overrides, status, error] of cases) {
      const response = await create(w.ana.headers, dataFor(hold.eventId, overrides), [
        { name: 'a.pdf', content: pdf(1000) },
      ]);
      expect([response.statusCode, response.json().error]).toEqual([status, error]);
    }
    await nothingKept();
  });

  it('needs a live hold of this customer, for this vet, starting at the schedule (409 otherwise)', async () => {
    const hold = await holdFor();
    const biaHold = await holdFor(w.bia, { startsAt: '2026-01-12T11:30:00Z' });
    const cases: [Partial<AppointmentData>, string][] = [
      [{ calendar_event_id: biaHold.eventId, schedule: '2026-01-12T11:30:00Z' }, 'hold_not_found'],
      [{ vet_user_id: w.sara.user.id }, 'hold_not_found'],
      [{ schedule: '2026-01-12T11:30:00Z' }, 'hold_not_found'],
      [{ calendar_event_id: 'AAAAAAAAAAAAAAAAAAAAAA' }, 'hold_not_found'],
    ];
    for (const [overrides, error] of cases) {
      const response = await create(w.ana.headers, dataFor(hold.eventId, overrides));
      expect([response.statusCode, response.json().error]).toEqual([409, error]);
    }
    // The same instant written with an offset is the same start.
    const sameInstant = await create(w.ana.headers, dataFor(hold.eventId, { schedule: '2026-01-12T12:00:00+01:00' }));
    expect(sameInstant.statusCode).toBe(201);
    expect((await t.db.select().from(appointments)).length).toBe(1);
  });

  it('refuses an expired or released hold with 409 hold_expired', async () => {
    const expired = await holdFor();
    const released = await holdFor(w.ana, {
      startsAt: '2026-01-12T11:30:00Z',
      expiresAt: '2026-01-12T10:20:00Z',
      releasedAt: new Date('2026-01-12T10:05:00Z'),
    });
    const releasedResponse = await create(
      w.ana.headers,
      dataFor(released.eventId, { schedule: '2026-01-12T11:30:00Z' }),
    );
    expect([releasedResponse.statusCode, releasedResponse.json().error]).toEqual([409, 'hold_expired']);
    clock.advance(15 * MINUTE_MS);
    const response = await create(w.ana.headers, dataFor(expired.eventId), [{ name: 'a.pdf', content: pdf(1000) }]);
    expect([response.statusCode, response.json().error]).toEqual([409, 'hold_expired']);
    await nothingKept();
  });

  it('makes one appointment per hold: a second request with the same event id gets 409', async () => {
    const hold = await holdFor();
    expect((await create(w.ana.headers, dataFor(hold.eventId))).statusCode).toBe(201);
    const again = await create(w.ana.headers, dataFor(hold.eventId), [{ name: 'a.pdf', content: pdf(1000) }]);
    expect([again.statusCode, again.json().error]).toEqual([409, 'hold_not_found']);
    expect((await t.db.select().from(appointments)).length).toBe(1);
    expect(await filesOnDisk()).toEqual({ stored: [], temp: [] });
  });

  it('settles two simultaneous requests for one hold: one 201, one 409, the loser’s files gone', async () => {
    const hold = await holdFor();
    const file = (name: string) => [{ name, content: pdf(200_000) }];
    const responses = await Promise.all([
      create(w.ana.headers, dataFor(hold.eventId), file('first.pdf')),
      create(w.ana.headers, dataFor(hold.eventId), file('second.pdf')),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const [appointment] = await t.db.select().from(appointments);
    expect((await t.db.select().from(appointments)).length).toBe(1);
    expect((await eventOf(hold.id)).appointmentId).toBe(appointment!.id);
    const rows = await t.db.select().from(appointmentFiles);
    expect(rows).toHaveLength(1);
    expect((await filesOnDisk()).stored).toEqual([rows[0]!.storageKey]);
  });

  it('validates appointment_data: JSON, the contract, a chief complaint', async () => {
    const hold = await holdFor();
    const cases: [unknown, Record<string, string>][] = [
      [{ ...dataFor(hold.eventId), description: '   ' }, { description: 'required' }],
      [{ ...dataFor(hold.eventId), description: undefined }, { description: 'required' }],
      [{ ...dataFor(hold.eventId), vet_observations: 'Healthy.' }, { vet_observations: 'invalid_value' }],
      [{ ...dataFor(hold.eventId), timezone_diff: 90_000 }, { timezone_diff: 'invalid_value' }],
      ['{not json', { appointment_data: 'invalid_format' }],
      [undefined, { appointment_data: 'required' }],
    ];
    for (const [data, fields] of cases) {
      const response = await create(w.ana.headers, data, [{ name: 'a.pdf', content: pdf(1000) }]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'validation_failed', fields });
    }
    await nothingKept();
  });

  it('accepts appointment_data after the files, and as a JSON blob part', async () => {
    const hold = await holdFor();
    const late = await create(w.ana.headers, dataFor(hold.eventId), [{ name: 'a.pdf', content: pdf(1000) }], {
      dataLast: true,
    });
    expect(late.statusCode).toBe(201);
    expect(await t.db.select().from(appointmentFiles)).toHaveLength(1);

    const second = await holdFor(w.ana, { startsAt: '2026-01-12T11:30:00Z' });
    const form = new FormData();
    form.append(
      'appointment_data',
      new Blob([JSON.stringify(dataFor(second.eventId, { schedule: '2026-01-12T11:30:00Z' }))], {
        type: 'application/json',
      }),
    );
    const encoded = new Response(form);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/appointments',
      headers: { ...w.ana.headers, 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(response.statusCode).toBe(201);
  });

  it('deletes files already stored when appointment_data, sent last, is refused', async () => {
    const hold = await holdFor();
    const response = await create(
      w.ana.headers,
      dataFor(hold.eventId, { pet_id: w.bia.pet.id }),
      [{ name: 'a.pdf', content: pdf(5000) }],
      { dataLast: true },
    );
    expect(response.statusCode).toBe(403);
    await nothingKept();
  });

  it('accepts files totalling exactly 20 MB and refuses one byte more with 413, keeping nothing', async () => {
    const half = MAX_CUSTOMER_UPLOAD_BYTES / 2;
    const hold = await holdFor();
    const over = await create(w.ana.headers, dataFor(hold.eventId), [
      { name: 'a.pdf', content: pdf(half) },
      { name: 'b.pdf', content: pdf(half + 1) },
    ]);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ error: 'files_too_large' });
    await nothingKept();
    expect((await eventOf(hold.id)).appointmentId).toBeNull();

    const atCap = await create(w.ana.headers, dataFor(hold.eventId), [
      { name: 'a.pdf', content: pdf(half) },
      { name: 'b.pdf', content: pdf(half) },
    ]);
    expect(atCap.statusCode).toBe(201);
    const rows = await t.db.select().from(appointmentFiles);
    expect(rows.reduce((total, row) => total + row.fileSize, 0)).toBe(MAX_CUSTOMER_UPLOAD_BYTES);
  });

  it('refuses a single file over the cap', async () => {
    const hold = await holdFor();
    const response = await create(w.ana.headers, dataFor(hold.eventId), [
      { name: 'big.pdf', content: pdf(MAX_CUSTOMER_UPLOAD_BYTES + 1) },
    ]);
    expect([response.statusCode, response.json().error]).toEqual([413, 'files_too_large']);
    await nothingKept();
  });

  it('refuses programs with 415 file_type_not_allowed, whatever their name, keeping nothing', async () => {
    const hold = await holdFor();
    const response = await create(w.ana.headers, dataFor(hold.eventId), [
      { name: 'fine.pdf', content: pdf(1000) },
      { name: 'xray.png', content: elf() },
    ]);
    expect([response.statusCode, response.json().error]).toEqual([415, 'file_type_not_allowed']);
    await nothingKept();
  });

  it('refuses bodies that are not the form: JSON (415), unknown parts (400), empty file parts skipped', async () => {
    const hold = await holdFor();
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/appointments',
      headers: w.ana.headers,
      payload: dataFor(hold.eventId),
    });
    expect([json.statusCode, json.json().error]).toEqual([415, 'unsupported_media_type']);
    const unknown = await create(w.ana.headers, dataFor(hold.eventId), [
      { name: 'a.pdf', content: pdf(1000) },
      { name: 'b.pdf', content: pdf(1000), field: 'attachment' },
    ]);
    expect([unknown.statusCode, unknown.json().error]).toEqual([400, 'validation_failed']);
    await nothingKept();
    const empty = await create(w.ana.headers, dataFor(hold.eventId), [{ name: '', content: Buffer.alloc(0) }]);
    expect(empty.statusCode).toBe(201);
    expect(await t.db.select().from(appointmentFiles)).toEqual([]);
    expect(await filesOnDisk()).toEqual({ stored: [], temp: [] });
  });

  it('leaves no orphan when the database fails after the bytes are stored and before the commit', async () => {
    // A failure injected into the transaction, after the appointment row and while the file rows go in.
    await t.db.execute(sql`
      create function fail_file_insert() returns trigger language plpgsql as $$
      begin raise exception 'disk full'; end $$`);
    await t.db.execute(sql`
      create trigger fail_file_insert before insert on appointment_files
      for each row execute function fail_file_insert()`);
    try {
      const hold = await holdFor();
      const response = await create(w.ana.headers, dataFor(hold.eventId), [{ name: 'a.pdf', content: pdf(50_000) }]);
      expect([response.statusCode, response.json().error]).toEqual([500, 'internal_error']);
      await nothingKept();
      expect((await eventOf(hold.id)).appointmentId).toBeNull();
      expect(
        await sweepFileStore({ db: t.db, store: store() }, { now: new Date(Date.now() + 24 * 3_600_000) }),
      ).toEqual({ removedStored: 0, removedTemp: 0 });
    } finally {
      // The database is handed on to the next test emptied, but a trigger would stay.
      await t.db.execute(sql`drop trigger fail_file_insert on appointment_files`);
      await t.db.execute(sql`drop function fail_file_insert()`);
    }
  });

  it('over real HTTP, answers a refused upload at once and closes its connection', async () => {
    const hold = await holdFor();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const send = async (data: AppointmentData, size: number) => {
      const form = new FormData();
      form.append('appointment_data', JSON.stringify(data));
      form.append('files[]', new Blob([new Uint8Array(pdf(size))]), 'scan.pdf');
      return fetch(`${address}/api/appointments`, { method: 'POST', headers: w.ana.headers, body: form });
    };
    const refused = await send(dataFor(hold.eventId, { pet_id: w.bia.pet.id }), MAX_CUSTOMER_UPLOAD_BYTES + 5_000_000);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('connection')).toBe('close');
    const over = await send(dataFor(hold.eventId), MAX_CUSTOMER_UPLOAD_BYTES + 5_000_000);
    expect([over.status, ((await over.json()) as { error: string }).error]).toEqual([413, 'files_too_large']);
    expect(await filesOnDisk()).toEqual({ stored: [], temp: [] });
    const accepted = await send(dataFor(hold.eventId), 1000);
    expect(accepted.status).toBe(201);
    // afterEach closes the server: a stalled half-read upload would keep it from closing.
  });
});
