// Settings → Notifications to your phone (issue 37): where they go (an ntfy topic, self-hosted
// or ntfy.sh, or a webhook; kept in the keychain and never shown back in full), which kinds, the
// message text or not, a snooze of everything, each room's level and snooze, and a test send.
import { useState } from 'react';
import type { NotifyKind, NotifySettings, RoomNotifyLevel, Snooze } from '../../../../../shared/model/notifications';
import { useApi } from '../../../api/ApiContext';
import { errorMessage } from '../../../api/client';
import { useAppData } from '../../../app/appData';
import { useQuery } from '../../../api/useQuery';
import { ErrorState, Loading } from '../../../components/StateViews';
import { formatClock } from '../../../lib/time';
import { useToast } from '../../../components/Toasts';
import { refOf, roomKey, roomTitle } from '../../../lib/rooms';
import { sortRooms } from '../../sidebar/Sidebar';

const KIND_WORDS: ReadonlyArray<{ kind: NotifyKind; label: string }> = [
  { kind: 'approval', label: 'An agent asks to use a tool, or for your approval' },
  { kind: 'blocked_task', label: 'A task is blocked' },
  { kind: 'cant_run', label: "A managed agent can't run" },
  { kind: 'mention', label: 'An agent mentions you or asks you a question' },
  { kind: 'turn_finished', label: 'A managed agent finished a turn' },
];
const LEVEL_WORDS: Readonly<Record<RoomNotifyLevel, string>> = { all: 'Everything chosen above', mentions: 'Only mentions of me', muted: 'Nothing (muted)' };
const SNOOZE_WORDS: Readonly<Record<Exclude<Snooze, 'off'>, string>> = { '1h': 'for 1 hour', '8h': 'for 8 hours', tomorrow: 'until 9:00 tomorrow' };

export function NotificationTargets() {
  const api = useApi();
  const toast = useToast();
  const settings = useQuery('notifications.get', {});
  const [error, setError] = useState<string | null>(null);
  if (settings.status === 'loading') return <Loading />;
  if (settings.status === 'error' && !settings.data) return <ErrorState message={settings.error} onRetry={settings.reload} />;
  const current = settings.data!;
  const apply = (next: NotifySettings) => settings.setData(() => next);
  const run = async (work: () => Promise<NotifySettings>, said?: string) => {
    setError(null);
    try {
      apply(await work());
      if (said) toast(said);
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  return (
    <div className="notify-settings">
      <TargetForm settings={current} onSaved={apply} />
      <fieldset>
        <legend>Send a notification when</legend>
        {KIND_WORDS.map(({ kind, label }) => (
          <label key={kind} className="checkbox">
            <input type="checkbox" checked={current.kinds[kind] ?? false} onChange={(e) => void run(() => api.call('notifications.set', { kinds: { [kind]: e.target.checked } }))} />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      <label className="checkbox">
        <input type="checkbox" checked={current.includeText} onChange={(e) => void run(() => api.call('notifications.set', { includeText: e.target.checked }))} />
        <span>Include the message (the command, the question) in the notification; without it, only who and where</span>
      </label>
      <SnoozeControl label="Snooze everything" until={current.snoozedUntil} onSnooze={(snooze) => void run(() => api.call('notifications.set', { snooze }), snooze === 'off' ? 'Notifications are back on.' : 'Snoozed.')} />
      <RoomLevels settings={current} onChange={(input) => void run(() => api.call('notifications.setRoom', input))} />
      {error && <p className="form-error" role="alert">{error}</p>}
    </div>
  );
}

function TargetForm({ settings, onSaved }: { settings: NotifySettings; onSaved: (next: NotifySettings) => void }) {
  const api = useApi();
  const toast = useToast();
  const [kind, setKind] = useState<'ntfy' | 'webhook'>(settings.target?.kind ?? 'ntfy');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    if (url.trim() === '') return setError(kind === 'ntfy' ? 'Give your ntfy topic URL, e.g. https://ntfy.sh/a-long-secret-topic.' : 'Give the webhook URL.');
    try {
      onSaved(await api.call('notifications.setTarget', { kind, url: url.trim(), ...(token.trim() ? { token: token.trim() } : {}) }));
      setUrl('');
      setToken('');
      setError(null);
      toast('Saved in the keychain.');
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  const test = async () => {
    try {
      const result = await api.call('notifications.test', {});
      toast(result.message, result.sent ? undefined : 'error');
    } catch (thrown) {
      toast(errorMessage(thrown), 'error');
    }
  };
  return (
    <form className="notify-target" onSubmit={(e) => void save(e)}>
      <p>
        {settings.target ? (
          <>
            Notifications go to {settings.target.kind === 'ntfy' ? 'the ntfy topic at' : 'the webhook at'} <code>{settings.target.shownUrl}</code>.
          </>
        ) : (
          'Notifications go nowhere yet.'
        )}
      </p>
      <div className="inline-fields">
        <label className="field field-narrow">
          <span>Send to</span>
          <select value={kind} onChange={(e) => setKind(e.target.value as 'ntfy' | 'webhook')}>
            <option value="ntfy">ntfy topic</option>
            <option value="webhook">Webhook (JSON)</option>
          </select>
        </label>
        <label className="field">
          <span>{kind === 'ntfy' ? 'Topic URL (its name is its secret)' : 'Webhook URL'}</span>
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder={kind === 'ntfy' ? 'https://ntfy.sh/a-long-secret-topic' : 'https://…'} autoComplete="off" />
        </label>
        <label className="field field-narrow">
          <span>
            Token <span className="field-optional">(optional)</span>
          </span>
          <input type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" placeholder="tk_…" />
        </label>
      </div>
      <div className="inline-form">
        <button type="submit" className="btn">
          Save
        </button>
        {settings.target && (
          <>
            <button type="button" className="btn" onClick={() => void test()}>
              Send a test
            </button>
            <button type="button" className="btn" onClick={() => void api.call('notifications.setTarget', { kind: 'none' }).then(onSaved)}>
              Stop sending
            </button>
          </>
        )}
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}

function SnoozeControl({ label, until, onSnooze }: { label: string; until: string | null; onSnooze: (snooze: Snooze) => void }) {
  return (
    <div className="inline-form">
      {until ? (
        <>
          <span>
            Snoozed until {formatClock(until)}.
          </span>
          <button type="button" className="btn" onClick={() => onSnooze('off')}>
            Stop snoozing
          </button>
        </>
      ) : (
        <label className="inline-field">
          <span>{label}</span>
          <select value="" onChange={(e) => e.target.value && onSnooze(e.target.value as Snooze)}>
            <option value="">Not snoozed</option>
            {Object.entries(SNOOZE_WORDS).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}

function RoomLevels({ settings, onChange }: { settings: NotifySettings; onChange: (input: { roomId: string; place: string; level?: RoomNotifyLevel; snooze?: Snooze }) => void }) {
  const { rooms } = useAppData();
  const list = sortRooms(rooms.data ?? []);
  if (list.length === 0) return null;
  const prefOf = (roomId: string, place: string) => settings.rooms.find((r) => r.roomId === roomId && r.place === place);
  return (
    <table className="notify-rooms">
      <caption>Per room</caption>
      <thead>
        <tr>
          <th scope="col">Room</th>
          <th scope="col">Notify about</th>
          <th scope="col">Snooze</th>
        </tr>
      </thead>
      <tbody>
        {list.map((room) => {
          const pref = prefOf(room.id, room.place);
          const title = roomTitle(room);
          return (
            <tr key={roomKey(refOf(room))}>
              <th scope="row">{title}</th>
              <td>
                <select aria-label={`Notifications from ${title}`} value={pref?.level ?? 'all'} onChange={(e) => onChange({ roomId: room.id, place: room.place, level: e.target.value as RoomNotifyLevel })}>
                  {Object.entries(LEVEL_WORDS).map(([value, words]) => (
                    <option key={value} value={value}>
                      {words}
                    </option>
                  ))}
                </select>
              </td>
              <td>
                {pref?.snoozedUntil ? (
                  <button type="button" className="btn btn-small" onClick={() => onChange({ roomId: room.id, place: room.place, snooze: 'off' })}>
                    Until {formatClock(pref.snoozedUntil)} · stop
                  </button>
                ) : (
                  <select aria-label={`Snooze ${title}`} value="" onChange={(e) => e.target.value && onChange({ roomId: room.id, place: room.place, snooze: e.target.value as Snooze })}>
                    <option value="">Not snoozed</option>
                    {Object.entries(SNOOZE_WORDS).map(([value, words]) => (
                      <option key={value} value={value}>
                        {words}
                      </option>
                    ))}
                  </select>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
