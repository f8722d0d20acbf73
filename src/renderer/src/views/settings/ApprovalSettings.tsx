// How long an "Ask me" agent's tool request waits for the person before it counts as Deny (issue 25).
import { useEffect, useState } from 'react';
import type { Settings } from '../../../../shared/types';
import { useSettingsSave } from './useSettingsSave';

const LABEL = 'Deny after (minutes)';
const MAX_MINUTES = 1_440;

export function ApprovalSettings({ settings, onSaved }: { settings: Settings; onSaved: (settings: Settings) => void }) {
  const [value, setValue] = useState(String(settings.approvalTimeoutMinutes));
  const { error, setError, save: saveSettings } = useSettingsSave(onSaved, 'Approval time limit saved.');
  useEffect(() => setValue(String(settings.approvalTimeoutMinutes)), [settings.approvalTimeoutMinutes]);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const minutes = Number(value.trim());
    if (value.trim() === '' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MINUTES) {
      return setError(`${LABEL}: a whole number from 1 to ${MAX_MINUTES.toLocaleString('en-US')}.`);
    }
    await saveSettings({ approvalTimeoutMinutes: minutes });
  };
  return (
    <form className="delivery-settings" onSubmit={save}>
      <label className="field">
        <span>{LABEL}</span>
        <input inputMode="numeric" value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={error ? true : undefined} />
      </label>
      <button type="submit" className="btn">
        Save
      </button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}
