// How long an "Ask me" agent's tool request waits for the person before it counts as Deny (issue 25).
import { useEffect, useState } from 'react';
import type { Settings } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useToast } from '../../components/Toasts';

const LABEL = 'Deny after (minutes)';
const MAX_MINUTES = 1_440;

export function ApprovalSettings({ settings, onSaved }: { settings: Settings; onSaved: (settings: Settings) => void }) {
  const api = useApi();
  const toast = useToast();
  const [value, setValue] = useState(String(settings.approvalTimeoutMinutes));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValue(String(settings.approvalTimeoutMinutes)), [settings.approvalTimeoutMinutes]);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const minutes = Number(value.trim());
    if (value.trim() === '' || !Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MINUTES) {
      return setError(`${LABEL}: a whole number from 1 to ${MAX_MINUTES.toLocaleString('en-US')}.`);
    }
    try {
      onSaved(await api.call('settings.set', { approvalTimeoutMinutes: minutes }));
      setError(null);
      toast('Approval time limit saved.');
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
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
