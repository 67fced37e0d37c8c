import { useEffect, useState, useSyncExternalStore } from 'react';
import { CallSession, type CallSessionDeps, type CallState } from './call-session';

/**
 * One call for the room's lifetime, rendered from its state. The effect starts it and disposes of it, so a
 * remount (React's strict mode) never leaves a camera or a socket behind: the session restarts cleanly.
 */
export function useCallSession(deps: CallSessionDeps): { session: CallSession; state: CallState } {
  const [session] = useState(() => new CallSession(deps));
  useEffect(() => {
    void session.start();
    return () => session.dispose();
  }, [session]);
  const state = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
  return { session, state };
}
