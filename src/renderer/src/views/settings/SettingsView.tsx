// Settings: theme, notifications, delivery limits, the approval time limit, GitHub client id, teams, phone access and notifications to the phone, data folder, export, about, diagnostics.
import type { Settings, Theme } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useAppData } from '../../app/appData';
import { CopyButton } from '../../components/CopyButton';
import { Icon } from '../../components/Icon';
import { ErrorState, Loading } from '../../components/StateViews';
import { useToast } from '../../components/Toasts';
import { ApprovalSettings } from './ApprovalSettings';
import { ClientIdSetting } from './ClientIdSetting';
import { DeliverySettings } from './DeliverySettings';
import { Diagnostics } from './Diagnostics';
import { ExportRoom } from './ExportRoom';
import { SettingsSection } from './SettingsSection';
import { TeamsSettings } from './teams/TeamsSettings';
import { PhoneSettings } from './phone/PhoneSettings';
import { NotificationTargets } from './phone/NotificationTargets';

const THEMES: Array<{ value: Theme; label: string }> = [
  { value: 'system', label: 'Match system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function SettingsView() {
  const api = useApi();
  const toast = useToast();
  const { settings, rooms, info } = useAppData();
  if (settings.status === 'loading') return <Loading />;
  if (settings.status === 'error' && !settings.data) return <ErrorState message={settings.error} onRetry={settings.reload} />;
  const current = settings.data!;
  const apply = (next: Settings) => settings.setData(() => next);
  const change = (patch: { theme?: Theme; notifications?: boolean }) =>
    api.call('settings.set', patch).then(apply, (error: unknown) => toast(errorMessage(error), 'error'));
  const openFolder = () =>
    api.call('app.openDataFolder', {}).then(
      ({ opened }) => !opened && toast('This window cannot open folders; the path is shown here.'),
      (error: unknown) => toast(errorMessage(error), 'error'),
    );

  return (
    <section className="page" aria-labelledby="settings-title">
      <header className="page-header">
        <h1 id="settings-title">Settings</h1>
      </header>
      <SettingsSection title="Theme" description="Light, dark, or whatever your system uses.">
        <div className="segmented" role="radiogroup" aria-label="Theme">
          {THEMES.map((theme) => (
            <label key={theme.value} className={current.theme === theme.value ? 'segment selected' : 'segment'}>
              <input type="radio" name="theme" value={theme.value} checked={current.theme === theme.value} onChange={() => void change({ theme: theme.value })} />
              {theme.label}
            </label>
          ))}
        </div>
      </SettingsSection>
      <SettingsSection title="Notifications" description="A system notification when something needs you.">
        <label className="switch">
          <input type="checkbox" role="switch" checked={current.notifications} onChange={(e) => void change({ notifications: e.target.checked })} />
          <span className="switch-track" aria-hidden="true" />
          <span>{current.notifications ? 'On' : 'Off'}</span>
        </label>
      </SettingsSection>
      <SettingsSection
        title="Delivery"
        description="A message an agent has not picked up (or a task it has not touched) becomes a Needs you item after this long; agents that keep messaging each other with no person involved are paused past the loop guard's limit."
      >
        <DeliverySettings settings={current} onSaved={apply} />
      </SettingsSection>
      <SettingsSection
        title="Approvals"
        description={'A tool use an "Ask me" agent asks about waits this long for your answer, then counts as Deny.'}
      >
        <ApprovalSettings settings={current} onSaved={apply} />
      </SettingsSection>
      <SettingsSection title="GitHub client id" description="The OAuth App LetAgents signs in with.">
        <ClientIdSetting settings={current} onSaved={apply} />
      </SettingsSection>
      <SettingsSection title="Teams" description="Rooms shared with other machines through a PostgreSQL database your team runs.">
        <TeamsSettings />
      </SettingsSection>
      <SettingsSection
        title="Phone"
        description="Your phone learns when an agent needs you, and answers it, over your own network (Wi-Fi or your own reverse proxy such as Tailscale Serve); nothing goes through a service of ours. Off until you turn it on."
      >
        <PhoneSettings />
      </SettingsSection>
      <SettingsSection
        title="Notifications to your phone"
        description="Through an ntfy topic (ntfy.sh or your own server) or a webhook you choose, so your phone hears of what needs you even with the page closed."
      >
        <NotificationTargets />
      </SettingsSection>
      <SettingsSection title="Data folder" description="Where the database and the agent socket live.">
        <div className="inline-form">
          <code className="path">{current.dataDir}</code>
          {/* A browser tab cannot open a folder on the computer (issue 27): say so instead of a button that cannot work. */}
          {api.host === 'electron' ? (
            <button type="button" className="btn" onClick={() => void openFolder()}>
              <Icon name="folder" size={14} /> Open
            </button>
          ) : (
            <CopyButton text={current.dataDir} label="Copy path" />
          )}
        </div>
        {api.host !== 'electron' && <p className="muted">A browser cannot open folders on your computer: copy the path into your file manager.</p>}
      </SettingsSection>
      <SettingsSection title="Export a room" description="Every message and task of a room, as a file.">
        <ExportRoom rooms={rooms.data ?? []} />
      </SettingsSection>
      <SettingsSection title="Diagnostics" description="The same checks as letagents-desktop doctor.">
        <Diagnostics />
      </SettingsSection>
      <SettingsSection title="About">
        <p>
          LetAgents {info.data?.version ?? ''} <span className="muted">· {info.data?.host === 'electron' ? 'desktop app' : 'in the browser'} · {info.data?.platform}</span>
        </p>
        {info.data && <p className="muted">You post as {info.data.person.name}{info.data.person.source === 'github' ? ' (GitHub)' : ' (your computer user name)'}.</p>}
      </SettingsSection>
    </section>
  );
}
