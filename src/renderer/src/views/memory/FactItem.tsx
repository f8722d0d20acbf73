// One fact: kind, title, Markdown text, who added it; edit and retire.
import { useState } from 'react';
import type { Fact } from '../../../../shared/types';
import { Markdown } from '../../components/Markdown';
import { Time } from '../../components/Time';
import { CATEGORY_WORDS, FactForm, type FactDraft } from './FactForm';

export function FactItem({ fact, onEdit, onRetire }: { fact: Fact; onEdit: (fact: Fact, draft: FactDraft) => Promise<unknown>; onRetire: (fact: Fact) => void }) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <li className="fact">
        <FactForm initial={fact} submitLabel="Save" onSubmit={(draft) => onEdit(fact, draft).then(() => setEditing(false))} onCancel={() => setEditing(false)} />
      </li>
    );
  }
  return (
    <li className={fact.retired ? 'fact fact-retired' : 'fact'}>
      <div className="fact-head">
        <span className={`badge badge-${fact.category}`}>{CATEGORY_WORDS[fact.category]}</span>
        <h3>{fact.title}</h3>
        {fact.retired && <span className="badge">Retired</span>}
        <span className="spacer" />
        {!fact.retired && (
          <>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setEditing(true)}>
              Edit
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => onRetire(fact)}>
              Retire
            </button>
          </>
        )}
      </div>
      <Markdown text={fact.body} />
      <p className="fact-by muted">
        {fact.createdBy.name} · <Time iso={fact.updatedAt} /> · <span className="task-id">{fact.id}</span>
      </p>
    </li>
  );
}
