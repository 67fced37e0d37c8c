import { useState } from 'react';
import { notifyError, notifySuccess } from './notify';

/**
 * One action at a time, with its toasts: `busy` says what runs (a row's id, or `true`) until it ends;
 * the action answers its success message, a failure is said by `errorMessage`, and `onSettled` (a
 * reload) follows either way.
 */
export function useBusyAction<Key = true>(onSettled?: () => Promise<unknown>) {
  const [busy, setBusy] = useState<Key>();

  async function run(key: Key, action: () => Promise<string>, errorMessage: (error: unknown) => string) {
    setBusy(key);
    try {
      notifySuccess(await action());
    } catch (error) {
      notifyError(errorMessage(error));
    } finally {
      setBusy(undefined);
      await onSettled?.();
    }
  }

  return { busy, run };
}
