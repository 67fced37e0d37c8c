import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { todayKey } from '@vetcall/shared/dates';
import { SIGNAL_PATH } from '@vetcall/shared/schemas/video';
import { addDaysToDateKey } from '@vetcall/shared/scheduling/zoned-time';
import { loadConfig } from './config.ts';
import { type DatabaseHandle, MIGRATIONS_FOLDER, openDatabase } from './db/client.ts';
import { appointments, availabilityProfiles, calendarEvents, pets, users, vets } from './db/schema.ts';
import { buildAppointment, buildHold } from './demo-data/factories.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-data/seed.ts';
import { COMPLETION_JOB, REMINDER_JOB } from './modules/appointments/lifecycle-jobs.ts';
import { issuePins } from './modules/appointments/pins.ts';
import { HOLD_RELEASE_JOB } from './modules/scheduling/hold-release-job.ts';
import { MAIL_JOB } from './providers/mail/mail-outbox.ts';
import { createSecrets } from './secrets.ts';
import { withDatabase } from '../test/database.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';
import { type BuiltCheckout, buildCheckout, type ServerProcess, spawnServer } from '../test/server-process.ts';
import { connectSignalClient, type SignalClient } from '../test/signal-client.ts';
import { startSmtpTestServer } from '../test/smtp-test-server.ts';

/**
 * Many instances, one platform (issue 18): two compiled server processes, started at the same moment on
 * different ports, share a new empty PostgreSQL database, Redis and an S3 bucket. What one instance counts,
 * stores or queues, the other sees. Needs the machine's PostgreSQL and Redis (TEST_DATABASE_URL and
 * TEST_REDIS_URL: CI's PostgreSQL pass sets both).
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

const MINUTE_MS = 60_000;
/** Longer than the workers' poll (main.ts JOB_POLL_INTERVAL_MS, 5 s): both have polled once more. */
const BOTH_POLLED_MS = 6_000;
const OFFER = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\n' } as const;

describe.runIf(databaseUrl && redisUrl)('many instances, one platform', () => {
  const appSecret = randomBytes(32).toString('hex');
  const keyPrefix = `vetcall-multi:${randomBytes(6).toString('hex')}:`;
  let databaseName: string;
  let instanceUrl: string;
  let checkout: BuiltCheckout;
  let s3: TestS3Server;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let database: DatabaseHandle;
  const sockets: SignalClient[] = [];
  /** Work for the job workers, put in the database as the instances start (see dueWork). */
  let due: Awaited<ReturnType<typeof dueWork>>;

  const admin = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: withDatabase(new URL(databaseUrl!), 'postgres') });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    // Named like the test databases the global teardown drops, should this file not get to drop it.
    databaseName = `${new URL(databaseUrl!).pathname.slice(1)}_multi_${randomBytes(4).toString('hex')}`;
    instanceUrl = withDatabase(new URL(databaseUrl!), databaseName);
    await admin((client) => client.query(`create database "${databaseName}"`));
    [checkout, s3, smtp] = await Promise.all([buildCheckout('vetcall-multi-'), startS3Server(), startSmtpTestServer()]);

    const shared = {
      NODE_ENV: 'development',
      DATABASE_URL: instanceUrl,
      DATABASE_POOL_SIZE: '5',
      REDIS_URL: redisUrl!,
      REDIS_KEY_PREFIX: keyPrefix,
      SMTP_URL: smtp.url,
      // One secret for all instances: PINs sealed on one are opened on the other.
      APP_SECRET: appSecret,
      ...s3.env,
    };
    // Both at once, on the empty database: each migrates (one waits for the other's lock) and seeds.
    [a, b] = await Promise.all([spawnServer(checkout, shared), spawnServer(checkout, shared)]);
    const ready = [a.ready(), b.ready()];
    // The first one listening has seeded (or found) the demo users: the reminder's appointment goes in now.
    await Promise.race(ready);
    database = await openDatabase({ url: instanceUrl });
    due = await dueWork();
    await Promise.all(ready);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    const exits = await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    if (databaseName) await admin((client) => client.query(`drop database if exists "${databaseName}" with (force)`));
    const redis = new Redis(redisUrl!);
    try {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      await redis.quit();
    }
    await Promise.all([s3?.stop(), smtp?.close(), checkout?.remove()]);
    expect(exits).toEqual([0, 0]);
  }, 60_000);

  beforeEach(() => {
    onTestFailed(() => {
      for (const [name, server] of [
        ['A', a],
        ['B', b],
      ] as const) {
        console.error(`--- instance ${name} (${server?.baseUrl}) printed:\n${server?.output() ?? ''}`);
      }
    });
  });

  /**
   * Rita's confirmed appointment with Dra. Ana Souza in 25 minutes, confirmed two hours ago (its 1-hour
   * reminder is due), and another one of hers still waiting for its payment on a hold that lapsed a minute ago
   * (to be released). Written as soon as an instance listens, before the workers' first poll (5 s after each
   * listens), so the recurring tasks of this minute, or at the latest of the next, find them.
   */
  async function dueWork() {
    const secrets = createSecrets(loadConfig({ APP_SECRET: appSecret }));
    const now = Date.now();
    const [rita] = await database.db.select().from(users).where(eq(users.email, 'customer@vetcall.test'));
    const [ana] = await database.db.select().from(users).where(eq(users.email, 'vet2@vetcall.test'));
    const [mia] = await database.db.select().from(pets).where(eq(pets.name, 'Mia'));
    return database.db.transaction(async (tx) => {
      const issued = await issuePins(tx, secrets);
      const appointment = await buildAppointment(
        tx,
        { customerUserId: rita!.id, petId: mia!.id, vetUserId: ana!.id },
        {
          schedule: new Date(Math.ceil((now + 25 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS),
          status: 'TK_Confirmed',
          statusDate: new Date(now - 120 * MINUTE_MS),
          confirmedAt: new Date(now - 120 * MINUTE_MS),
          description: 'Espirra muito desde ontem.',
          customerPinHash: issued.customerPinHash,
          vetPinHash: issued.vetPinHash,
          pinCipher: issued.pinCipher,
          paymentProvider: 'builtin',
          paidAt: new Date(now - 180 * MINUTE_MS),
          itemName: 'Consulta por vídeo',
        },
      );
      const unpaid = await buildAppointment(
        tx,
        { customerUserId: rita!.id, petId: mia!.id, vetUserId: ana!.id },
        { schedule: new Date(now + 3 * 24 * 60 * MINUTE_MS), status: 'TK_PendingPayment', statusDate: new Date(now) },
      );
      const hold = await buildHold(tx, {
        vetUserId: ana!.id,
        customerUserId: rita!.id,
        startsAt: unpaid.schedule,
        expiresAt: new Date(now - MINUTE_MS),
        appointmentId: unpaid.id,
      });
      return { reminded: { id: appointment.id, pins: issued.pins }, lapsed: { id: unpaid.id, holdId: hold.id } };
    });
  }

  const call = async (
    server: ServerProcess,
    method: string,
    url: string,
    init: RequestInit & { token?: string } = {},
  ) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetch(`${server.baseUrl}${url}`, { ...init, method, headers, redirect: 'manual' });
  };
  const login = async (server: ServerProcess, email: string, password = DEMO_PASSWORD) => {
    const response = await call(server, 'POST', '/api/login/', { body: JSON.stringify({ email, password }) });
    expect(response.status, `login of ${email}`).toBe(200);
    return ((await response.json()) as { token: string }).token;
  };
  /** The rows of a query of the shared database. */
  const rowsOf = async <Row>(query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(email));

  it('both started on the empty database: each migration ran once, the demo data was seeded once', async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const migrations = await rowsOf(
      sql`select count(*)::int as runs, count(distinct hash)::int as distinct_runs from drizzle.__drizzle_migrations`,
    );
    expect(migrations[0]).toEqual({ runs: journal.entries.length, distinct_runs: journal.entries.length });

    const accounts = await database.db.select({ email: users.email }).from(users);
    expect(accounts.map((row) => row.email).sort()).toEqual(DEMO_ACCOUNTS.map((account) => account.email).sort());
    // Rows without a unique key of their own: made twice, they would be here twice.
    const seeded = await rowsOf(sql`
      select (select count(*)::int from products) as products, (select count(*)::int from access_codes) as codes,
             (select count(*)::int from pets) as pets`);
    expect(seeded[0]).toEqual({ products: 1, codes: 2, pets: 2 });
    // One of the two created them; the other found them there.
    const created = [a, b].filter((server) => server.output().includes('(created now)'));
    expect(created).toHaveLength(1);
  });

  it('a rate limit counted on both instances applies on each: five failed logins on A and five on B lock the address', async () => {
    const email = 'manager@vetcall.test';
    const attempt = (server: ServerProcess, password: string) =>
      call(server, 'POST', '/api/login/', { body: JSON.stringify({ email, password }) });
    for (const server of [a, a, a, a, a, b, b, b, b, b]) {
      expect((await attempt(server, 'not-the-password')).status).toBe(401);
    }
    // Neither instance saw ten failures itself; together they did. Even the right password is held back now.
    for (const server of [a, b]) {
      const locked = await attempt(server, DEMO_PASSWORD);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('a customer books and pays through A with a file; the vet downloads it and confirms through B; the call meets across A and B', async () => {
    const rita = await login(a, 'customer@vetcall.test');
    const [joao] = await database.db
      .select({ userId: users.id, vetId: vets.id, profileId: availabilityProfiles.id })
      .from(users)
      .innerJoin(vets, eq(vets.userId, users.id))
      .innerJoin(availabilityProfiles, eq(availabilityProfiles.vetId, vets.id))
      .where(eq(users.email, 'vet@vetcall.test'));
    const [ritaRow] = await database.db.select().from(users).where(eq(users.email, 'customer@vetcall.test'));
    const [bolinha] = await database.db.select().from(pets).where(eq(pets.name, 'Bolinha'));

    // The first free slot of the week ahead, held and booked through A.
    const tomorrow = addDaysToDateKey(todayKey(new Date(), 'Europe/Lisbon'), 1);
    const slots = await call(
      a,
      'GET',
      `/api/vets/${joao!.vetId}/slots?from=${tomorrow}&to=${addDaysToDateKey(tomorrow, 7)}`,
      {
        token: rita,
      },
    );
    expect(slots.status).toBe(200);
    const [slot] = (await slots.json()) as { start: string }[];
    const held = await call(a, 'POST', '/api/scheduling/holds', {
      token: rita,
      body: JSON.stringify({ vet_id: joao!.vetId, profile_id: joao!.profileId, start: slot!.start }),
    });
    expect(held.status).toBe(201);
    const { event_id: eventId } = (await held.json()) as { event_id: string };

    const file = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)]);
    const form = new FormData();
    form.append(
      'appointment_data',
      JSON.stringify({
        customer_user_id: ritaRow!.id,
        pet_id: bolinha!.id,
        vet_user_id: joao!.userId,
        description: 'Coxeia da pata traseira desde ontem.',
        schedule: slot!.start,
        calendar_event_id: eventId,
        timezone_diff: 0,
        access_code: 'DEMO-NORMAL',
      }),
    );
    form.append('files[]', new Blob([new Uint8Array(file)]), 'análises.pdf');
    const booked = await call(a, 'POST', '/api/appointments', { token: rita, body: form });
    expect(booked.status).toBe(201);
    const booking = (await booked.json()) as { appointment_hash: string; payment_hash: string; price_cents: number };
    expect(booking.price_cents).toBe(2500);

    // Paid through A on the built-in checkout: the form first, as the browser posts it, then the card.
    const paymentForm = await call(a, 'POST', '/api/payment/pt', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        payment_hash: booking.payment_hash,
        payment_email: 'customer@vetcall.test',
        customer_user_id: String(ritaRow!.id),
        auth_token: rita,
        ga_client_id: 'GA1.1.123.456',
        appointment_included: '0',
      }).toString(),
    });
    expect(paymentForm.status).toBe(303);
    expect(paymentForm.headers.get('location')).toBe(`/checkout/${booking.payment_hash}?lang=pt`);
    const paid = await call(a, 'POST', `/api/payment/checkout/${booking.payment_hash}/pay`, {
      token: rita,
      body: JSON.stringify({ card_number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Rita Carvalho' }),
    });
    expect(paid.status).toBe(200);

    // The vet's request mail carries the confirmation link; the vet follows it to instance B.
    const request = await smtp.waitFor(
      (mail) => mail.envelopeTo.includes('vet@vetcall.test') && (mail.text ?? '').includes('/confirmappointment/'),
      15_000,
    );
    const hash = /\/confirmappointment\/([A-Za-z0-9_-]+)\?/.exec(request.text ?? '')![1]!;
    expect(hash).toBe(booking.appointment_hash);

    // The file Rita sent through A, downloaded whole by the vet through B.
    const vet = await login(b, 'vet@vetcall.test');
    const [appointment] = await database.db.select().from(appointments).where(eq(appointments.hash, hash));
    const listed = await call(b, 'GET', `/api/appointments/files/${appointment!.id}`, { token: vet });
    expect(listed.status).toBe(200);
    const [stored] = (await listed.json()) as { file_name: string; uploaded_by: string; download_url: string }[];
    expect(stored).toMatchObject({ file_name: 'análises.pdf', uploaded_by: 'customer' });
    const download = await call(b, 'GET', stored!.download_url, { token: vet });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);

    // Confirmed through B at a time a few minutes from now, so that the room is open at once.
    const start = new Date(Math.ceil((Date.now() + 10 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS);
    const confirmed = await call(b, 'POST', `/api/appointments/confirm/${hash}`, {
      body: JSON.stringify({
        hash,
        email: 'vet@vetcall.test',
        schedule: start.toISOString().slice(0, 16).replace('T', ' '),
        timezone_diff: 0,
      }),
    });
    expect(confirmed.status).toBe(200);
    const { appointment_pin: vetPin } = (await confirmed.json()) as { appointment_pin: string };
    const confirmation = await smtp.waitFor(
      (mail) =>
        mail.envelopeTo.includes('customer@vetcall.test') &&
        (mail.text ?? '').includes(`/appointment/`) &&
        mail.subject === 'Consulta confirmada: Bolinha com Dr. João Silva',
      15_000,
    );
    const customerPin = /\/appointment\/(\d{6})\?/.exec(confirmation.text ?? '')![1]!;

    // The customer joins on A, the vet on B: each sees the other, and an offer crosses.
    const customer = await connectSignalClient(`ws://127.0.0.1:${a.port}${SIGNAL_PATH}`);
    sockets.push(customer);
    expect(await customer.join(customerPin)).toMatchObject({ party: 'customer', peer: null });
    const doctor = await connectSignalClient(`ws://127.0.0.1:${b.port}${SIGNAL_PATH}`);
    sockets.push(doctor);
    expect(await doctor.join(vetPin)).toMatchObject({ party: 'vet', peer: { name: 'Rita Carvalho' } });
    expect(await customer.next('peer-joined')).toMatchObject({ party: 'vet', name: 'Dr. João Silva' });
    customer.send(OFFER);
    expect(await doctor.next('offer')).toEqual(OFFER);
    doctor.send({ type: 'chat', text: 'Olá, Rita' });
    expect(await customer.next('chat')).toMatchObject({ text: 'Olá, Rita' });
  }, 60_000);

  it('each job runs once across both workers: the reminder, the hold release and every mail', async () => {
    const { reminded, lapsed } = due;
    // The 1-hour reminder of the appointment written at the start: one mail to each party.
    const toVet = await smtp.waitFor(
      (mail) => mail.envelopeTo.includes('vet2@vetcall.test') && (mail.text ?? '').includes(reminded.pins.vet),
      75_000,
    );
    expect(toVet.text).toContain(reminded.pins.vet);
    await new Promise((resolve) => setTimeout(resolve, BOTH_POLLED_MS));

    const [row] = await database.db
      .select({ reminded1hAt: appointments.reminded1hAt })
      .from(appointments)
      .where(eq(appointments.id, reminded.id));
    expect(row!.reminded1hAt).not.toBeNull();
    // The lapsed hold was given back and its unpaid appointment ended.
    const [unpaid] = await database.db.select().from(appointments).where(eq(appointments.id, lapsed.id));
    expect(unpaid!.status).toBe('TK_PaymentFailed');
    const [hold] = await database.db.select().from(calendarEvents).where(eq(calendarEvents.id, lapsed.holdId));
    expect(hold!.releasedAt).not.toBeNull();
    // Every mail of this file, each once: the request (both), the confirmation (both), the reminder (both).
    const sent = smtp.received.map((mail) => `${mail.envelopeTo.join(',')} ${mail.subject}`).sort();
    expect(new Set(sent).size).toBe(sent.length);
    expect(mailsTo('customer@vetcall.test')).toHaveLength(3);
    expect(mailsTo('vet@vetcall.test')).toHaveLength(2);
    expect(mailsTo('vet2@vetcall.test')).toHaveLength(1);
    expect(mailsTo('customer@vetcall.test').some((mail) => (mail.text ?? '').includes(reminded.pins.customer))).toBe(
      true,
    );

    // Every job, mail or recurring task (queued by both instances, one row per period), was run by one worker
    // one time: none twice, none failed (a job queued a moment ago may not have run yet).
    const rows = await rowsOf<{ kind: string; status: string; attempts: number; jobs: number }>(sql`
      select kind, status, attempts, count(*)::int as jobs from jobs group by kind, status, attempts order by kind`);
    expect(rows.filter((job) => job.attempts > 1 || job.status === 'failed')).toEqual([]);
    const ran = rows.filter((job) => job.status === 'done');
    expect(ran.map((job) => job.kind)).toEqual(
      expect.arrayContaining([REMINDER_JOB, COMPLETION_JOB, HOLD_RELEASE_JOB, MAIL_JOB]),
    );
    expect(ran.find((job) => job.kind === MAIL_JOB)!.jobs).toBe(smtp.received.length);
  }, 90_000);
});
