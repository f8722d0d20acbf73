// Drives GitHub's device flow from the sign-in screen: start, poll at GitHub's interval
// (slow-down handled silently), and end in authorized, denied, expired or error.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DeviceFlow } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';

export type FlowState =
  | { step: 'idle' }
  | { step: 'starting' }
  | { step: 'waiting'; flow: DeviceFlow }
  | { step: 'authorized' }
  | { step: 'denied' }
  | { step: 'expired' }
  | { step: 'error'; message: string };

export function useDeviceFlow(pending: DeviceFlow | null, onAuthorized: () => void) {
  const api = useApi();
  const [state, setState] = useState<FlowState>(pending ? { step: 'waiting', flow: pending } : { step: 'idle' });
  const interval = useRef(pending?.interval ?? 5);
  const done = useRef(onAuthorized);
  done.current = onAuthorized;

  const start = useCallback(async () => {
    setState({ step: 'starting' });
    try {
      const flow = await api.call('auth.startDeviceFlow', { force: true });
      interval.current = flow.interval;
      setState({ step: 'waiting', flow });
    } catch (error) {
      setState({ step: 'error', message: errorMessage(error) });
    }
  }, [api]);

  const cancel = useCallback(async () => {
    setState({ step: 'idle' });
    await api.call('auth.cancel', {}).catch(() => undefined);
  }, [api]);

  const waitingFlow = state.step === 'waiting' ? state.flow : null;
  useEffect(() => {
    if (!waitingFlow) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      if (stopped) return;
      if (Date.now() >= new Date(waitingFlow.expiresAt).getTime()) return setState({ step: 'expired' });
      try {
        const result = await api.call('auth.poll', {});
        if (stopped) return;
        if (result.status === 'pending' || result.status === 'slow_down') {
          if (result.interval) interval.current = result.interval;
          timer = setTimeout(poll, interval.current * 1000);
        } else if (result.status === 'authorized') {
          setState({ step: 'authorized' });
          done.current();
        } else if (result.status === 'denied' || result.status === 'expired') {
          setState({ step: result.status });
        } else {
          setState({ step: 'error', message: result.message ?? 'GitHub could not be reached.' });
        }
      } catch (error) {
        if (!stopped) setState({ step: 'error', message: errorMessage(error) });
      }
    };
    timer = setTimeout(poll, interval.current * 1000);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, waitingFlow]);

  return { state, start, cancel };
}
