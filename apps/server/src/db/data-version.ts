/**
 * A number that moves whenever the database may have changed: after every statement of this process that
 * can write (seen on the driver, so every path counts: routes, jobs, tests' factories), and when another
 * instance's write is announced on the CHANGES_CHANNEL (PostgreSQL NOTIFY, sent by triggers on commit).
 *
 * Caches of database reads store the version they started at and are valid only while it has not moved:
 * a read that overlaps a write is never kept, and no write can be missed by a table list that forgot one.
 * Writes are rare next to reads here (a clinic books a few times a minute and reads constantly), so
 * "anything changed" is precise enough, and is the only rule that cannot go stale.
 */
export class DataVersion {
  #value = 0;
  /**
   * Whether every change can be seen: always with the embedded database (one process), and with PostgreSQL
   * only while this instance listens on CHANGES_CHANNEL. While it cannot, caches keep nothing.
   */
  complete = true;

  get current(): number {
    return this.#value;
  }

  bump(): void {
    this.#value += 1;
  }
}

/** Whether a finished statement (its text from the first word) changed data a cached read can show. */
const changedData = (text: string, result: unknown): boolean => mayChangeData(text) && changedRows(result);

type QueryFunction = (...args: never[]) => unknown;

/** Whether a finished statement changed rows: DML reports a count (pg rowCount, PGlite affectedRows); DDL none. */
function changedRows(result: unknown): boolean {
  const { rowCount, affectedRows } = (result ?? {}) as { rowCount?: number | null; affectedRows?: number };
  const count = typeof rowCount === 'number' ? rowCount : affectedRows;
  return typeof count === 'number' ? count > 0 : true;
}

/**
 * Makes a driver client's `query` bump `version` once a statement has changed data, before its caller sees
 * the result: an autocommitted statement that changed rows at once, and inside a transaction at its commit
 * (a bump before the commit would let a read of the old rows be kept as new). A statement that changed no
 * row (a minutely task that found nothing to do) moves nothing. Promise form (PGlite, node-postgres) and
 * callback form (the node-postgres pool calls its clients so).
 */
export function watchWrites(client: { query: QueryFunction }, version: DataVersion): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let inTransaction = false;
  let changedInTransaction = false;

  const finished = (text: string, result: unknown) => {
    if (/^(begin|start\s+transaction)\b/i.test(text)) {
      inTransaction = true;
      changedInTransaction = false;
    } else if (/^(commit|end)\b/i.test(text)) {
      if (changedInTransaction) version.bump();
      inTransaction = false;
      changedInTransaction = false;
    } else if (/^rollback\s*$/i.test(text)) {
      inTransaction = false;
      changedInTransaction = false;
    } else if (changedData(text, result)) {
      if (inTransaction) changedInTransaction = true;
      else version.bump();
    }
  };

  client.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text?: unknown } | undefined;
    const raw = typeof first === 'string' ? first : first?.text;
    if (typeof raw !== 'string') return query(...args);
    const text = statementHead(raw);
    if (/^(select|show|listen|unlisten)\b/i.test(text)) return query(...args);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown, ...rest: unknown[]) => {
        if (!error) finished(text, result);
        (callback as (...values: unknown[]) => void)(error, result, ...rest);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise)
      void result.then(
        (value) => finished(text, value),
        () => undefined,
      );
    return result;
  }) as QueryFunction;
}

/**
 * Calls `changed` once a statement on `tx`, a transaction's own handle (PGlite runs a transaction's statements
 * there, not through the client's `query`), has changed data: the transaction's caller moves the version after
 * its commit, and only then, so a transaction that changed nothing (a job poll finding no work) keeps every
 * cached read. A multi-statement `exec` counts as a change whatever it did.
 */
export function watchTransactionWrites(tx: { query: QueryFunction; exec: QueryFunction }, changed: () => void): void {
  const query = tx.query.bind(tx) as (...args: unknown[]) => Promise<unknown>;
  const exec = tx.exec.bind(tx) as (...args: unknown[]) => Promise<unknown>;
  tx.query = (async (...args: unknown[]) => {
    const result = await query(...args);
    if (typeof args[0] !== 'string' || changedData(statementHead(args[0]), result)) changed();
    return result;
  }) as QueryFunction;
  tx.exec = (async (...args: unknown[]) => {
    const result = await exec(...args);
    changed();
    return result;
  }) as QueryFunction;
}

/**
 * A statement from its first word: without the spaces and the opening parentheses before it, so that a
 * compound read such as Drizzle's `(select …) union all (select …)` reads as the select it is.
 */
const statementHead = (statement: string): string => statement.replace(/^[\s(]+/, '');

/** The channel the change triggers notify (migration 0011_change_notifications). */
export const CHANGES_CHANNEL = 'vetcall_changes';

/**
 * Whether a statement can change what a read sees once it commits. Reads (`select`, a `with` that only
 * selects), transaction starts and rollbacks cannot; everything else counts, including `commit`. The job
 * queue's own bookkeeping (claiming and finishing jobs) is no data a cached read shows.
 */
export function mayChangeData(statement: string): boolean {
  const text = statementHead(statement);
  if (/^(select|begin|start\s+transaction|rollback|savepoint|release|set|show|listen|unlisten)\b/i.test(text)) {
    return false;
  }
  if (/^with\b/i.test(text)) return /\b(insert|update|delete|merge)\b/i.test(text);
  // The job queue's bookkeeping and the audit log are no data a cached read shows.
  if (/^(update|insert\s+into|delete\s+from)\s+"?(jobs|audit_events)"?[\s(]/i.test(text)) return false;
  return true;
}
