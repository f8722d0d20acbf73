// Subscribes a component to core events for as long as it is mounted.
import { useEffect, useRef, useState } from 'react';
import type { AppEvent } from '../../../shared/events';
import { useApi } from './ApiContext';

export function useAppEvents(listener: (event: AppEvent) => void): void {
  const api = useApi();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => api.subscribe((event) => latest.current(event)), [api]);
}

/** Calls `onReconnect` each time the bridge comes back after a drop (to refetch). */
export function useReconnect(onReconnect: () => void): void {
  const api = useApi();
  const latest = useRef(onReconnect);
  latest.current = onReconnect;
  useEffect(() => {
    let wasDown = false;
    return api.onConnection((state) => {
      if (state !== 'open') wasDown = true;
      else if (wasDown) {
        wasDown = false;
        latest.current();
      }
    });
  }, [api]);
}

/**
 * False while the bridge to the core is down after it had been up (the app restarted or
 * stopped): what the page shows of live state (who listens now) is not known then (issue 35).
 */
export function useCoreReachable(): boolean {
  const api = useApi();
  const [away, setAway] = useState(false);
  useEffect(() => {
    let wasOpen = false;
    return api.onConnection((state) => {
      if (state === 'open') wasOpen = true;
      setAway(wasOpen && state !== 'open');
    });
  }, [api]);
  return !away;
}
