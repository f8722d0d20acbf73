// Add or edit a fact: category, title and text.
import { useState } from 'react';
import type { Fact, FactCategory } from '../../../../shared/types';
import { errorMessage } from '../../api/client';

export const CATEGORY_WORDS: Readonly<Record<FactCategory, string>> = {
  goal: 'Goal',
  decision: 'Decision',
  constraint: 'Constraint',
  term: 'Term',
  reference: 'Reference',
};

export interface FactDraft {
  category: FactCategory;
  title: string;
  body: string;
}

export function FactForm({ initial, submitLabel, onSubmit, onCancel }: { initial?: Fact; submitLabel: string; onSubmit: (draft: FactDraft) => Promise<unknown>; onCancel: () => void }) {
  const [draft, setDraft] = useState<FactDraft>({ category: initial?.category ?? 'decision', title: initial?.title ?? '', body: initial?.body ?? '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!draft.title.trim() || !draft.body.trim()) return setError('A fact needs a title and some text.');
    setBusy(true);
    try {
      await onSubmit({ ...draft, title: draft.title.trim(), body: draft.body.trim() });
    } catch (thrown) {
      setError(errorMessage(thrown));
      setBusy(false);
    }
  };
  return (
    <form className="form fact-form" onSubmit={submit}>
      <div className="form-row">
        <label className="field field-narrow">
          <span>Kind</span>
          <select value={draft.category} onChange={(e) => setDraft({ ...draft, category: e.target.value as FactCategory })}>
            {Object.entries(CATEGORY_WORDS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Title</span>
          <input value={draft.title} maxLength={160} onChange={(e) => setDraft({ ...draft, title: e.target.value })} data-autofocus autoFocus />
        </label>
      </div>
      <label className="field">
        <span>Text</span>
        <textarea rows={4} value={draft.body} maxLength={8000} onChange={(e) => setDraft({ ...draft, body: e.target.value })} />
      </label>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="form-actions">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
