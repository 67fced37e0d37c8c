import type { Clock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { claimDueJobs, completeJob, enqueueJobs, failJob, type JobRow, releaseJobs } from './job-queue.ts';

/** Runs one kind of job; a throw is a failed attempt (retried with back-off). */
export type JobHandler = (payload: unknown, job: JobRow) => Promise<void>;

export interface JobWorkerOptions {
  db: Database;
  clock: Clock;
  handlers: Readonly<Record<string, JobHandler>>;
  /** Jobs claimed per round. */
  batchSize?: number;
  onError?: (error: unknown, job?: JobRow) => void;
  /** Work that recurs (completion, reminders): queued once per period across all instances. */
  recurring?: readonly RecurringTask[];
}

/** A job kind run every `everyMs`; the payload names the period. */
export interface RecurringTask {
  kind: string;
  everyMs: number;
}

export interface JobWorker {
  /** Runs every due job until none is left; answers how many ran (tests and `kick` use it). */
  drain(): Promise<number>;
  /** Asks for a drain soon without waiting for it (after a commit that queued work). */
  kick(): void;
  /**
   * Queues the recurring tasks of the current period: every instance does, the dedupe key
   * (`kind:period`) lets one row exist, and one worker runs it. The polling timer calls it; tests do.
   */
  tick(): Promise<void>;
  /** Polls every `intervalMs` until stop(); a poll that is still running skips the next tick. */
  start(intervalMs: number): void;
  /**
   * Stops polling and waits for the job in progress (a graceful shutdown): the jobs its round claimed but did
   * not start are given back, and nothing more is claimed.
   */
  stop(): Promise<void>;
}

/**
 * The worker of one instance. Each round claims due jobs (job-queue.ts: SKIP LOCKED and a lease, so a job
 * runs on one worker at a time across instances) and runs them one after another. A job of a kind this
 * worker has no handler for fails its attempt, so it is retried and, if no instance knows it, given up.
 */
export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const batchSize = options.batchSize ?? 20;
  let running: Promise<number> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  /** The timer's poll in progress: its tick writes before any round runs, and stop() waits for it too. */
  let polling: Promise<void> | null = null;
  let stopped = false;

  async function runOne(job: JobRow) {
    const handler = options.handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind '${job.kind}'`);
      await handler(job.payload, job);
      await completeJob(options.db, job, options.clock.now());
    } catch (error) {
      options.onError?.(error, job);
      await failJob(options.db, job, options.clock.now(), error);
    }
  }

  async function rounds(): Promise<number> {
    let ran = 0;
    for (;;) {
      const claimed = await claimDueJobs(options.db, options.clock.now(), batchSize);
      // Until nothing is due: a job may queue others (a completion queues its mails).
      if (claimed.length === 0) return ran;
      for (const [index, job] of claimed.entries()) {
        if (stopped) {
          await releaseJobs(options.db, claimed.slice(index));
          return ran;
        }
        await runOne(job);
        ran += 1;
      }
      if (stopped) return ran;
    }
  }

  function drain(): Promise<number> {
    if (stopped) return running ?? Promise.resolve(0);
    if (running) {
      // Work queued while a round runs may have been claimed already or not: run once more after it.
      again = true;
      return running;
    }
    running = (async () => {
      let ran = 0;
      do {
        again = false;
        ran += await rounds();
      } while (again && !stopped);
      return ran;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  /** The last period each task was queued for by this worker: a poll within the same period writes nothing. */
  const queuedPeriods = new Map<string, number>();
  async function tick() {
    const now = options.clock.now();
    const due = (options.recurring ?? []).flatMap((task) => {
      const period = Math.floor(now.getTime() / task.everyMs);
      return queuedPeriods.get(task.kind) === period ? [] : [{ task, period }];
    });
    await enqueueJobs(
      options.db,
      now,
      due.map(({ task, period }) => ({ kind: task.kind, payload: { period }, dedupeKey: `${task.kind}:${period}` })),
    );
    for (const { task, period } of due) queuedPeriods.set(task.kind, period);
  }

  return {
    drain,
    tick,
    kick() {
      drain().catch((error: unknown) => options.onError?.(error));
    },
    start(intervalMs) {
      timer ??= setInterval(() => {
        if (running || polling || stopped) return;
        polling = tick()
          .then(drain)
          .then(
            () => undefined,
            (error: unknown) => options.onError?.(error),
          )
          .finally(() => {
            polling = null;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      // A poll that was queuing the recurring tasks when the signal came ends before the database closes.
      await Promise.all([polling, running?.catch(() => undefined)]);
    },
  };
}
