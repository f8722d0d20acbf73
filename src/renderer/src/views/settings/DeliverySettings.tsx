// When an undelivered message or an untouched task becomes a "Needs you" item, and how many
// agent messages with no person involved trip the loop guard (issue 14).
import { useEffect, useState } from 'react';
import type { DeliveryLimits, Settings } from '../../../../shared/types';
import { useSettingsSave } from './useSettingsSave';

const FIELDS: ReadonlyArray<{ key: keyof DeliveryLimits; label: string; min: number; max: number }> = [
  { key: 'unansweredAfterSeconds', label: 'Not picked up after (seconds)', min: 1, max: 86_400 },
  { key: 'loopGuardMessages', label: 'Loop guard: messages', min: 2, max: 1_000 },
  { key: 'loopGuardMinutes', label: 'Loop guard: within (minutes)', min: 1, max: 1_440 },
];

export function DeliverySettings({ settings, onSaved }: { settings: Settings; onSaved: (settings: Settings) => void }) {
  const [values, setValues] = useState(() => toText(settings.delivery));
  const { error, setError, save: saveSettings } = useSettingsSave(onSaved, 'Delivery limits saved.');
  useEffect(() => setValues(toText(settings.delivery)), [settings.delivery]);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    const patch: Partial<DeliveryLimits> = {};
    for (const field of FIELDS) {
      const n = Number(values[field.key]);
      if (!Number.isInteger(n) || n < field.min || n > field.max) return setError(`${field.label}: a whole number from ${field.min} to ${field.max.toLocaleString('en-US')}.`);
      patch[field.key] = n;
    }
    await saveSettings({ delivery: patch });
  };
  return (
    <form className="delivery-settings" onSubmit={save}>
      {FIELDS.map((field) => (
        <label key={field.key} className="field">
          <span>{field.label}</span>
          <input inputMode="numeric" value={values[field.key]} onChange={(e) => setValues({ ...values, [field.key]: e.target.value })} aria-invalid={error?.startsWith(field.label) ? true : undefined} />
        </label>
      ))}
      <button type="submit" className="btn">
        Save
      </button>
      {error && <p className="form-error" role="alert">{error}</p>}
    </form>
  );
}

function toText(limits: DeliveryLimits): Record<keyof DeliveryLimits, string> {
  return { unansweredAfterSeconds: String(limits.unansweredAfterSeconds), loopGuardMessages: String(limits.loopGuardMessages), loopGuardMinutes: String(limits.loopGuardMinutes) };
}
