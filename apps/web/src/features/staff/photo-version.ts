import { useSyncExternalStore } from 'react';

/**
 * Cache-busting values for profile photos (docs/product-rules.md#api: an optional random hash up to 99999): a new one
 * after each upload, so every <img> of that user fetches the new photo.
 */
const versions = new Map<number, number>();
const listeners = new Set<() => void>();

export function bumpPhotoVersion(userId: number): void {
  versions.set(userId, Math.floor(Math.random() * 99_999) + 1);
  for (const listener of listeners) listener();
}

export function usePhotoUrl(userId: number): string {
  const version = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => versions.get(userId),
  );
  return version ? `/api/users/image/${userId}/?hash=${version}` : `/api/users/image/${userId}/`;
}
