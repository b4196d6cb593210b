import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { whenEarlyRequestsTaken } from '@/lib/early-requests.ts';

/** How long a revisit's page has to itself once its first screen's data is in. */
export const FIREBASE_AFTER_FIRST_SCREEN_MS = 2_000;

/** However busy the page stays, Firebase loads this long after the controller mounted. */
export const FIREBASE_DEFERRAL_LIMIT_MS = 10_000;

type ProfileStatus = 'pending' | 'success' | 'error';

function whenIdle(callback: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(callback, { timeout: 1_000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
}

/**
 * Whether to load the Firebase SDK now. A browser that never signed in needs it at once, to
 * sign in. On a revisit the server's session is usually still valid and Firebase is needed only
 * to sign in again (signing out loads it itself): it then waits until the page has taken its
 * first screen's data, nothing is being fetched, a moment has passed for the page to draw it and
 * the browser is idle, so that a third of the console's JavaScript does not compete with the
 * page for the network and the main thread. A refused profile (the session is gone) needs
 * Firebase to recover the session, so it loads as soon as the browser is idle.
 */
export function useIsFirebaseWanted({
  hasStoredAccount,
  profileStatus,
}: {
  hasStoredAccount: boolean;
  profileStatus: ProfileStatus;
}): boolean {
  const [isWanted, setIsWanted] = useState(!hasStoredAccount);
  const [haveEarlyRequestsBeenTaken, setHaveEarlyRequestsBeenTaken] = useState(false);
  const fetchingCount = useIsFetching();

  useEffect(() => {
    if (isWanted) return;
    let isCurrent = true;
    void whenEarlyRequestsTaken().then(() => {
      if (isCurrent) setHaveEarlyRequestsBeenTaken(true);
    });
    const limit = setTimeout(() => setIsWanted(true), FIREBASE_DEFERRAL_LIMIT_MS);
    return () => {
      isCurrent = false;
      clearTimeout(limit);
    };
  }, [isWanted]);

  const isFirstScreenIn =
    profileStatus === 'error' ||
    (profileStatus === 'success' && haveEarlyRequestsBeenTaken && fetchingCount === 0);
  const delayMs = profileStatus === 'error' ? 0 : FIREBASE_AFTER_FIRST_SCREEN_MS;
  useEffect(() => {
    if (isWanted || !isFirstScreenIn) return;
    let cancelIdle = () => {};
    const timer = setTimeout(() => {
      cancelIdle = whenIdle(() => setIsWanted(true));
    }, delayMs);
    return () => {
      clearTimeout(timer);
      cancelIdle();
    };
  }, [isWanted, isFirstScreenIn, delayMs]);

  return isWanted;
}
