// The GitHub OAuth client id used for sign-in (the environment variable wins when set).
import { useEffect, useState } from 'react';
import type { Settings } from '../../../../shared/types';
import { useSettingsSave } from './useSettingsSave';

export function ClientIdSetting({ settings, onSaved }: { settings: Settings; onSaved: (settings: Settings) => void }) {
  const [value, setValue] = useState(settings.githubClientId ?? '');
  const { error, save: saveSettings } = useSettingsSave(onSaved, 'GitHub client id saved.');
  useEffect(() => {
    setValue(settings.githubClientId ?? '');
  }, [settings.githubClientId]);
  if (settings.githubClientIdSource === 'environment') {
    return (
      <p className="muted">
        Set by <code>LETAGENTS_GITHUB_CLIENT_ID</code>: <code>{settings.githubClientId}</code>
      </p>
    );
  }
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    await saveSettings({ githubClientId: value.trim() === '' ? null : value.trim() });
  };
  return (
    <form className="inline-form" onSubmit={save}>
      <input value={value} onChange={(e) => setValue(e.target.value)} placeholder="Client ID of your GitHub OAuth App" aria-label="GitHub client id" aria-invalid={error ? true : undefined} />
      <button type="submit" className="btn">
        Save
      </button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}
