// Shown in a browser tab that has no session with the app: opened without a link, from a
// link already used or expired, or after every session was ended.
import type { NoAccessReason } from './api/connect';

const HEADINGS: Readonly<Record<NoAccessReason, string>> = {
  no_session: 'Open LetAgents from its link',
  used_or_expired: 'This link was already used or has expired',
  reused: 'This link had just been used',
  unreachable: 'Cannot reach LetAgents',
};

const LEADS: Readonly<Record<NoAccessReason, string>> = {
  no_session: 'This page needs a link from the app. Each link carries a one-time code, so other pages and people on this computer cannot read your rooms.',
  used_or_expired: 'Each link works once, within a minute of being made, so an old one from your history or another tab opens nothing.',
  reused: 'Someone else on this computer may have used it first, so LetAgents ended every browser session to be safe.',
  unreachable: 'The app did not answer. It may have stopped.',
};

export function NoAccess({ reason }: { reason: NoAccessReason }) {
  return (
    <main className="no-access">
      <div className="home-card">
        <span className="home-mark" aria-hidden="true">
          L
        </span>
        <h1>{HEADINGS[reason]}</h1>
        <p className="home-lead">{LEADS[reason]}</p>
        <p className="home-lead">
          Open the app again with <code>letagents-desktop open</code> (or <code>npm start</code>).
        </p>
      </div>
    </main>
  );
}
