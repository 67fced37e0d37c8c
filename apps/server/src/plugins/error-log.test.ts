import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../app.ts';
import { users } from '../db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { registerErrorHandler } from './error-handler.ts';

/** A customer whose details must never reach the log. */
const CUSTOMER = {
  name: 'Ana Confidencial Pereira',
  email: 'ana.confidencial@example.pt',
  phone: '+351 912 345 678',
  address: 'Rua das Flores Secretas 12, 3º Esq',
};
const PERSONAL = Object.values(CUSTOMER);

/**
 * The app's logger options (app.ts) on an app whose routes fail the way a real write does: a duplicate
 * insert (unique violation, the driver's detail quotes the email), and a value the database cannot read
 * (its message quotes the value). The log lines are collected as the logger writes them.
 */
describe('error logs', () => {
  let database: TestDatabase;
  let app: FastifyInstance;
  const written: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString());
        callback();
      },
    });
    app = Fastify({ logger: loggerOptions('info', stream) });
    registerErrorHandler(app);
    const insertCustomer = (body: typeof CUSTOMER) =>
      database.db.insert(users).values({ type: 'customer', passwordHash: 'x', ...body });
    app.post('/customers', async (request) => {
      await insertCustomer(request.body as typeof CUSTOMER);
      return { ok: true };
    });
    app.post('/unreadable', async (request) => {
      await database.db.execute(sql`select ${(request.body as typeof CUSTOMER).name}::integer`);
      return { ok: true };
    });
    app.post('/job', async (request) => {
      // As main.ts logs a failed job attempt: the error of the job's write, through the app's logger.
      const error = await insertCustomer(request.body as typeof CUSTOMER).catch((caught: unknown) => caught);
      app.log.error({ err: error, job: { id: 1, kind: 'mail' } }, 'job attempt failed');
      return { ok: true };
    });
    await app.ready();
    await database.db.insert(users).values({ type: 'customer', passwordHash: 'x', ...CUSTOMER });
  });
  afterAll(async () => {
    await app.close();
    await database.release();
  });

  async function logOf(url: string) {
    written.length = 0;
    const response = await app.inject({ method: 'POST', url, payload: CUSTOMER });
    return { status: response.statusCode, body: response.body, log: written.join('') };
  }

  it('logs a failed insert by its code, constraint and table, never its parameters or detail', async () => {
    const { status, body, log } = await logOf('/customers');
    expect(status).toBe(500);
    for (const value of PERSONAL) {
      expect(log).not.toContain(value);
      expect(body).not.toContain(value);
    }
    expect(log).not.toMatch(/Key \(email\)|params|detail/);
    const line = log
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { err?: Record<string, unknown> })
      .find((entry) => entry.err)!;
    expect(line.err).toMatchObject({
      message: 'database error 23505',
      code: '23505',
      constraint: 'users_email_unique',
      table: 'users',
    });
    expect(line.err!.stack).toMatch(/^\s+at /);
  });

  it('does not log a value the database quoted in its message', async () => {
    const { status, log } = await logOf('/unreadable');
    expect(status).toBe(500);
    for (const value of PERSONAL) expect(log).not.toContain(value);
    expect(log).toContain('"code":"22P02"');
  });

  it('keeps a failed job attempt as clean as a failed request', async () => {
    const { log } = await logOf('/job');
    for (const value of PERSONAL) expect(log).not.toContain(value);
    expect(log).toContain('"constraint":"users_email_unique"');
    expect(log).toContain('"msg":"job attempt failed"');
  });

  it('keeps what other errors say: type, message, code and cause', () => {
    const lines: string[] = [];
    const logger = Fastify({ logger: loggerOptions('info', { write: (line) => void lines.push(line) }) }).log;
    const error = Object.assign(new Error('mail server refused', { cause: new Error('ECONNREFUSED') }), {
      code: 'ESOCKET',
      command: `RCPT TO:<${CUSTOMER.email}>`,
    });
    logger.error({ err: error }, 'send failed');
    const line = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({
      type: 'Error',
      message: 'mail server refused',
      code: 'ESOCKET',
      cause: { message: 'ECONNREFUSED' },
    });
    expect(lines[0]).not.toContain(CUSTOMER.email);
  });
});
