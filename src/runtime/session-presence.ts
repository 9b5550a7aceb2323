import { useSelector } from '@xstate/react';
import { useRuntime } from './context';

/** Whether someone is signed in, or the session is still being read (a reload, the sign-in return). */
export function useSessionPresence(): 'pending' | 'signedIn' | 'signedOut' {
  const { session } = useRuntime();
  return useSelector(session, (s) =>
    s.matches('authenticated')
      ? 'signedIn'
      : s.matches('checking') || s.matches('completingSignIn')
        ? 'pending'
        : 'signedOut',
  );
}
