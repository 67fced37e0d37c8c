import { focusManager } from '@tanstack/react-query';

/**
 * Query options of lists that other people change while the page is open (the vets free on a date, a vet's
 * free times): asked again each time the person comes back to the page, however recently they were fetched.
 */
export const REFETCH_ON_RETURN = { refetchOnWindowFocus: 'always' } as const;

/**
 * Coming back to the page: the tab shown again (TanStack's own signal) or its window focused again, since a
 * window beside it (another person's session, the clinic's calendar) does not hide the tab.
 */
export function listenForReturns(): void {
  focusManager.setEventListener((handleFocus) => {
    const listener = () => handleFocus();
    window.addEventListener('visibilitychange', listener, false);
    window.addEventListener('focus', listener, false);
    return () => {
      window.removeEventListener('visibilitychange', listener);
      window.removeEventListener('focus', listener);
    };
  });
}
