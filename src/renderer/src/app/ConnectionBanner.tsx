// Says so when the window has lost its connection to the LetAgents core, and what to do:
// a short drop reconnects by itself; after a restart the tab's session is gone (the UI
// secret is new every run), so the person opens the app again and this tab then reconnects
// by itself, or at once when its new link is pasted into this tab (a box without a browser);
// when nothing answers at this address the app stopped or moved elsewhere (a page cannot read
// the data folder to find where): opening it again shows the new address.
import { useEffect, useState } from 'react';
import { useApi } from '../api/ApiContext';
import type { ConnectionState } from '../api/transport';

const OPEN_AGAIN = (
  <>
    <code>letagents-desktop open</code> (or <code>npm start</code>)
  </>
);

/** A box with no browser (serve over ssh): `open` can only print the link, and this tab takes it (issue 35). */
const NO_BROWSER = (
  <>
    {' '}Without a browser there, <code>letagents-desktop open --print</code> prints a link: paste it into this tab.
  </>
);

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
  if (state === 'connecting') {
    return (
      <div className="connection-banner" role="status">
        Lost the connection to LetAgents. Reconnecting…
      </div>
    );
  }
  return (
    <div className="connection-banner error" role="status">
      {state === 'sessions_revoked' ? (
        <>
          <strong>LetAgents ended this tab&apos;s session</strong> to be safe: a link was used twice. Open it again with {OPEN_AGAIN}; this tab
          reconnects by itself once you have.{NO_BROWSER}
        </>
      ) : state === 'session_ended' ? (
        <>
          <strong>LetAgents restarted</strong>, so this tab&apos;s session ended. Open it again from the terminal with {OPEN_AGAIN}; this tab
          reconnects by itself once you have (or reload it then).{NO_BROWSER}
        </>
      ) : (
        <>
          <strong>LetAgents is not answering at this address</strong> ({window.location.host}). If it was stopped, start it again; if it
          runs again already, it may be at a new address: {OPEN_AGAIN} opens it there.{NO_BROWSER}
        </>
      )}
    </div>
  );
}
