// Loads one API method's result and keeps it fresh: refetches when a matching core event
// arrives, the bridge reconnects, or a team whose data it shows came back after a lost
// connection (what its other apps did meanwhile). Old data stays on screen while a refetch runs.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MethodName } from '../../../shared/bridge';
import type { MethodInput, MethodOutput } from '../../../shared/contract';
import type { AppEvent } from '../../../shared/events';
import { useApi } from './ApiContext';
import { ApiError, errorMessage } from './client';
import { useAppEvents, useReconnect } from './useAppEvents';

export type QueryState<T> =
  | { status: 'loading'; data: undefined; error: null; errorCode: null }
  | { status: 'error'; data: T | undefined; error: string; errorCode: string }
  | { status: 'ready'; data: T; error: null; errorCode: null };

export type Query<T> = QueryState<T> & { reload: () => void; setData: (update: (old: T) => T) => void };

/** `input: null` skips loading (nothing to ask yet). */
export function useQuery<M extends MethodName>(
  method: M,
  input: MethodInput<M> | null,
  refreshOn?: (event: AppEvent) => boolean,
): Query<MethodOutput<M>> {
  type T = MethodOutput<M>;
  const api = useApi();
  const key = input === null ? null : JSON.stringify(input);
  const [state, setState] = useState<QueryState<T>>({ status: 'loading', data: undefined, error: null, errorCode: null });
  const generation = useRef(0);

  // A burst of events (an agent posting fast) collapses into one call in flight plus at most one more.
  const inFlight = useRef(false);
  const again = useRef(false);
  const load = useCallback(() => {
    if (key === null) return;
    if (inFlight.current) {
      again.current = true;
      return;
    }
    inFlight.current = true;
    const mine = ++generation.current;
    const settle = () => {
      inFlight.current = false;
      if (again.current) {
        again.current = false;
        load();
      }
    };
    api.call(method, JSON.parse(key) as MethodInput<M>).then(
      (data) => {
        if (mine === generation.current) setState({ status: 'ready', data, error: null, errorCode: null });
        settle();
      },
      (error: unknown) => {
        if (mine === generation.current) setState((old) => ({ status: 'error', data: old.data, error: errorMessage(error), errorCode: error instanceof ApiError ? error.code : 'internal' }));
        settle();
      },
    );
  }, [api, method, key]);

  useEffect(() => {
    setState({ status: 'loading', data: undefined, error: null, errorCode: null });
    inFlight.current = false; // a new key starts fresh; answers for the old key are ignored
    again.current = false;
    load();
  }, [load]);

  const refresh = useRef(refreshOn);
  refresh.current = refreshOn;
  useAppEvents((event) => {
    if (refresh.current?.(event) || (event.type === 'place.reconnected' && key !== null && showsPlace(JSON.parse(key) as object, event.place))) load();
  });
  useReconnect(load);

  const setData = useCallback((update: (old: T) => T) => {
    setState((old) => (old.status === 'ready' ? { ...old, data: update(old.data) } : old));
  }, []);

  return { ...state, reload: load, setData } as Query<T>;
}

/** A query of one room in `place`, or of every room (no room in its input): a team coming back may change it. */
function showsPlace(input: object, place: string): boolean {
  return 'place' in input ? input.place === place : !('roomId' in input);
}
