// Says so when the window has lost its connection to the LetAgents core.
import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';
import type { ConnectionState } from '../api/transport';

export function ConnectionBanner() {
  const api = useApi();
  const [state, setState] = useState<ConnectionState>('open');
  const [everOpen, setEverOpen] = useState(false);
  useEffect(
    () =>
      api.onConnection((next) => {
        setState(next);
        if (next === 'open') setEverOpen(true);
      }),
    [api],
  );
  if (state === 'open' || (state === 'connecting' && !everOpen)) return null;
  return (
    <div className={state === 'closed' ? 'connection-banner error' : 'connection-banner'} role="status">
      {state === 'closed'
        ? 'Cannot reach LetAgents, or this browser session has ended. Open the app again with `letagents-desktop open` (or `npm start`).'
        : 'Lost the connection to LetAgents. Reconnecting…'}
    </div>
  );
}
