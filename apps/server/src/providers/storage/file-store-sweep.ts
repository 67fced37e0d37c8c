import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appointmentFiles } from '../../db/schema.ts';
import { type FileStore, STORED_ORPHAN_GRACE_MS, TEMP_FILE_MAX_AGE_MS } from './file-store.ts';

/**
 * Deletes stored bytes that no appointment_files row names and what abandoned uploads left. Bytes younger than
 * STORED_ORPHAN_GRACE_MS are left alone (their transaction may still be running, here or in another instance
 * sharing the store), and uploads younger than TEMP_FILE_MAX_AGE_MS. `now` is compared with the store's own
 * times (file modification times, object LastModified), so it is the real time, not the application clock.
 */
export async function sweepFileStore(
  deps: { db: Pick<Database, 'select'>; store: FileStore },
  options: { now?: Date } = {},
): Promise<{ removedStored: number; removedTemp: number }> {
  const now = (options.now ?? new Date()).getTime();
  const { store } = deps;
  const removedTemp = await store.removeAbandonedUploads(new Date(now - TEMP_FILE_MAX_AGE_MS));

  let removedStored = 0;
  for await (const batch of store.listStoredBefore(new Date(now - STORED_ORPHAN_GRACE_MS))) {
    const named = await deps.db
      .select({ storageKey: appointmentFiles.storageKey })
      .from(appointmentFiles)
      .where(inArray(appointmentFiles.storageKey, batch));
    const kept = new Set(named.map((row) => row.storageKey));
    const orphans = batch.filter((key) => !kept.has(key));
    await store.discard(orphans.map((storageKey) => ({ storageKey })));
    removedStored += orphans.length;
  }
  return { removedStored, removedTemp };
}
