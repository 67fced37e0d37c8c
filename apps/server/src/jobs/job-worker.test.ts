import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock.ts';
import { jobs } from '../db/jobs-schema.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import {
  claimDueJobs,
  enqueueJobs,
  FINISHED_JOB_RETENTION_MS,
  JOB_GIVE_UP_AFTER_MS,
  JOB_LEASE_MS,
  purgeFinishedJobs,
  retryDelayMs,
} from './job-queue.ts';
import { createJobWorker, type JobHandler } from './job-worker.ts';

const NOW = '2026-03-10T10:00:00Z';

describe('job queue and worker', () => {
  let database: TestDatabase;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    database = await createTestDatabase();
    clock = fixedClock(NOW);
  });
  afterEach(async () => {
    await database.release();
  });

  const statusOf = async (id: number) => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
  const worker = (handlers: Record<string, JobHandler>) => createJobWorker({ db: database.db, clock, handlers });

  it('writes a job only when the transaction that queued it commits', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueJobs(tx, clock.now(), [{ kind: 'mail', payload: { n: 1 } }]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await database.db.select().from(jobs)).toEqual([]);
  });

  it('runs a due job once and drops its payload; a job queued for later waits for its time', async () => {
    const seen: unknown[] = [];
    const [now] = await enqueueJobs(database.db, clock.now(), [{ kind: 'note', payload: { text: 'now' } }]);
    const [later] = await enqueueJobs(database.db, clock.now(), [
      { kind: 'note', payload: { text: 'later' }, runAt: new Date(clock.now().getTime() + 60_000) },
    ]);
    const notes = worker({ note: async (payload) => void seen.push(payload) });
    expect(await notes.drain()).toBe(1);
    expect(await notes.drain()).toBe(0);
    expect(seen).toEqual([{ text: 'now' }]);
    expect(await statusOf(now!)).toMatchObject({ status: 'done', attempts: 1, payload: {} });
    clock.advance(60_000);
    expect(await notes.drain()).toBe(1);
    expect(seen).toEqual([{ text: 'now' }, { text: 'later' }]);
    expect((await statusOf(later!)).status).toBe('done');
  });

  it('retries a failing job with growing waits, and marks it failed after three days', async () => {
    let failures = 0;
    const [id] = await enqueueJobs(database.db, clock.now(), [{ kind: 'mail', payload: {} }]);
    const flaky = worker({
      mail: async () => {
        failures += 1;
        throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      },
    });
    await flaky.drain();
    let job = await statusOf(id!);
    expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:25' });
    expect(job.runAt.getTime() - clock.now().getTime()).toBe(retryDelayMs(1));
    // Not yet due: nothing runs.
    clock.advance(retryDelayMs(1) - 1);
    await flaky.drain();
    expect(failures).toBe(1);
    clock.advance(1);
    await flaky.drain();
    expect(failures).toBe(2);
    expect(retryDelayMs(2)).toBe(3 * retryDelayMs(1));

    // Keep failing until the give-up time passes.
    while ((job = await statusOf(id!)).status === 'pending') {
      clock.set(job.runAt);
      await flaky.drain();
    }
    expect(job.status).toBe('failed');
    expect(job.finishedAt!.getTime() - new Date(NOW).getTime()).toBeLessThanOrEqual(JOB_GIVE_UP_AFTER_MS);
    expect(job.finishedAt!.getTime() - new Date(NOW).getTime()).toBeGreaterThan(JOB_GIVE_UP_AFTER_MS - 60 * 60_000);
  });

  it('queues a job with a dedupe key once', async () => {
    const first = await enqueueJobs(database.db, clock.now(), [{ kind: 'r', payload: {}, dedupeKey: 'reminder:1' }]);
    const second = await enqueueJobs(database.db, clock.now(), [{ kind: 'r', payload: {}, dedupeKey: 'reminder:1' }]);
    expect(first).toHaveLength(1);
    expect(second).toEqual([]);
    expect(await database.db.select().from(jobs)).toHaveLength(1);
  });

  it('gives a job whose worker died to another worker when its lease ends', async () => {
    const [id] = await enqueueJobs(database.db, clock.now(), [{ kind: 'note', payload: {} }]);
    // A worker claims it and dies before finishing.
    expect(await claimDueJobs(database.db, clock.now(), 10)).toHaveLength(1);
    const ran: number[] = [];
    const survivor = worker({ note: async (_payload, job) => void ran.push(job.id) });
    expect(await survivor.drain()).toBe(0);
    clock.advance(JOB_LEASE_MS);
    expect(await survivor.drain()).toBe(1);
    expect(ran).toEqual([id]);
    expect(await statusOf(id!)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('runs each job exactly once when the workers of two instances drain side by side', async () => {
    const ids = await enqueueJobs(
      database.db,
      clock.now(),
      Array.from({ length: 60 }, (_, n) => ({ kind: 'note', payload: { n } })),
    );
    const runs = new Map<number, number>();
    const handler: JobHandler = async (_payload, job) => {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 1));
    };
    const a = createJobWorker({ db: database.db, clock, handlers: { note: handler }, batchSize: 7 });
    const b = createJobWorker({ db: database.db, clock, handlers: { note: handler }, batchSize: 5 });
    const [ranA, ranB] = await Promise.all([a.drain(), b.drain()]);
    expect(ranA + ranB).toBe(60);
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(ids);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  it('queues a recurring task once per period, however often the worker polls', async () => {
    const ticking = createJobWorker({
      db: database.db,
      clock,
      handlers: {},
      recurring: [{ kind: 'every-minute', everyMs: 60_000 }],
    });
    await ticking.tick();
    clock.advance(5_000);
    await ticking.tick();
    expect((await database.db.select().from(jobs)).map((job) => job.dedupeKey)).toEqual([
      `every-minute:${Math.floor(new Date(NOW).getTime() / 60_000)}`,
    ]);
    clock.advance(60_000);
    await ticking.tick();
    expect(await database.db.select().from(jobs)).toHaveLength(2);
  });

  it('deletes finished jobs after their retention, never pending ones', async () => {
    const [done, pending] = await enqueueJobs(database.db, clock.now(), [
      { kind: 'note', payload: {} },
      { kind: 'note', payload: {}, runAt: new Date(clock.now().getTime() + 60 * 24 * 60 * 60 * 1000) },
    ]);
    await worker({ note: async () => undefined }).drain();
    clock.advance(FINISHED_JOB_RETENTION_MS - 1);
    expect(await purgeFinishedJobs(database.db, clock.now())).toBe(0);
    clock.advance(2);
    expect(await purgeFinishedJobs(database.db, clock.now())).toBe(1);
    expect((await database.db.select().from(jobs)).map((job) => job.id)).toEqual([pending]);
    expect(done).toBeDefined();
  });

  it('claims due jobs in due order, whatever order the table keeps them in', async () => {
    const ids = await enqueueJobs(database.db, clock.now(), [
      { kind: 'note', payload: { n: 1 } },
      { kind: 'note', payload: { n: 2 } },
      { kind: 'note', payload: { n: 3 } },
    ]);
    // An update writes a row anew after the others: the first job is now the last one the table holds.
    await database.db
      .update(jobs)
      .set({ payload: { n: 1, touched: true } })
      .where(eq(jobs.id, ids[0]!));
    const claimed = await claimDueJobs(database.db, clock.now(), 10);
    expect(claimed.map((job) => job.id)).toEqual(ids);
  });

  it('on stop, finishes the job in progress, gives back the ones it claimed but did not start, and claims no more', async () => {
    const ids = await enqueueJobs(database.db, clock.now(), [
      { kind: 'slow', payload: { n: 1 } },
      { kind: 'slow', payload: { n: 2 } },
      { kind: 'slow', payload: { n: 3 } },
    ]);
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    let finish!: () => void;
    const firstMayFinish = new Promise<void>((resolve) => (finish = resolve));
    const ran: unknown[] = [];
    const slow = worker({
      slow: async (payload) => {
        started();
        await firstMayFinish;
        ran.push(payload);
      },
    });
    const draining = slow.drain();
    await firstStarted;
    const stopping = slow.stop();
    finish();
    await stopping;
    expect(await draining).toBe(1);
    expect(ran).toEqual([{ n: 1 }]);
    expect(await statusOf(ids[0]!)).toMatchObject({ status: 'done' });
    for (const id of ids.slice(1)) {
      expect(await statusOf(id!)).toMatchObject({ status: 'pending', lockedUntil: null, attempts: 0 });
    }
    expect(await slow.drain()).toBe(0);
    // Another instance (or this one after its restart) runs them at once, not after the lease.
    expect(await worker({ slow: async (payload) => void ran.push(payload) }).drain()).toBe(2);
    expect(ran).toHaveLength(3);
  });
  it('on stop, waits for a poll that is still queuing the recurring tasks, and runs nothing after it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const tableLocked = new Promise<void>((resolve) => (locked = resolve));
    // The jobs table held by another transaction: the poll's insert of the recurring task waits on it.
    const holder = database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table jobs in share mode`);
      locked();
      await released;
    });
    await tableLocked;
    const ran: unknown[] = [];
    const polled = createJobWorker({
      db: database.db,
      clock,
      handlers: { note: async (payload) => void ran.push(payload) },
      recurring: [{ kind: 'note', everyMs: 60_000 }],
    });
    polled.start(10);
    await new Promise((resolve) => setTimeout(resolve, 100));
    let stopped = false;
    const stopping = polled.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stopped).toBe(false);
    release();
    await holder;
    await stopping;
    // The poll queued this period's task and ended; being stopped, the worker did not run it.
    const rows = await database.db.select().from(jobs);
    expect(rows).toMatchObject([{ kind: 'note', status: 'pending' }]);
    expect(ran).toEqual([]);
  });
});
