// Add or edit a fact: category, title and text.
import { useState } from 'react';
import type { Fact, FactCategory } from '../../../../shared/types';
import { Form } from '../../components/Form';

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
  return (
    <Form
      className="form fact-form"
      submitLabel={submitLabel}
      check={() => (!draft.title.trim() || !draft.body.trim() ? 'A fact needs a title and some text.' : null)}
      onSubmit={() => onSubmit({ ...draft, title: draft.title.trim(), body: draft.body.trim() })}
      onCancel={onCancel}
    >
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
    </Form>
  );
}
