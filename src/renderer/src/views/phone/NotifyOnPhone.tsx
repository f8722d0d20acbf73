// On a paired phone (issue 37): lets the page show the phone's own notifications while it is
// open, asked for only when the person presses the button (a browser refuses a request that
// came from no tap), and says where it cannot (a certificate the phone does not trust, a
// browser without notifications).
import { useEffect, useState } from 'react';
import { showPhoneNotification } from './phoneWorker';

type State = 'unsupported' | NotificationPermission;

const stateNow = (): State => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

export function NotifyOnPhone() {
  const [state, setState] = useState<State>(stateNow);
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => setState(stateNow()), []);
  if (state === 'unsupported') return <p className="muted">This browser shows no notifications for a page; notifications come through ntfy or your webhook.</p>;
  if (state === 'denied') return <p className="muted">Notifications are blocked for this page in the phone's settings.</p>;
  const turnOn = async () => {
    const answer = await Notification.requestPermission().catch(() => 'denied' as const);
    setState(answer);
    if (answer !== 'granted') return;
    const shown = await showPhoneNotification('LetAgents', 'Notifications on this phone are on while this page is open.', 'letagents-on', '/');
    setSaid(shown ? 'On: this phone shows a notification when something needs you.' : 'This phone could not show one (is the certificate trusted?).');
  };
  if (state === 'granted') return <p className="muted" role="status">{said ?? 'This phone shows a notification when something needs you.'}</p>;
  return (
    <button type="button" className="btn btn-large" onClick={() => void turnOn()}>
      Notify me on this phone
    </button>
  );
}
