// The Memory tab: what agents and people keep for the room (goals, decisions, constraints,
// terms, references). People add, edit and retire facts; retired ones are hidden from agents.
import { useState } from 'react';
import type { Fact, RoomSummary } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { useQuery } from '../../api/useQuery';
import { isEventOf, refOf } from '../../lib/rooms';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { FactForm } from './FactForm';
import { FactItem } from './FactItem';

export function MemoryView({ room }: { room: RoomSummary }) {
  const api = useApi();
  const [showRetired, setShowRetired] = useState(false);
  const [adding, setAdding] = useState(false);
  const [retiring, setRetiring] = useState<Fact | null>(null);
  const ref = refOf(room);
  const facts = useQuery('memory.list', { ...ref, includeRetired: showRetired }, (e) => e.type === 'knowledge.changed' && isEventOf(e, ref));

  const body = () => {
    if (facts.status === 'loading') return <Loading label="Loading memory…" />;
    if (facts.status === 'error' && !facts.data) return <ErrorState message={facts.error} onRetry={facts.reload} />;
    const list = facts.data ?? [];
    if (list.length === 0 && !adding) {
      return (
        <EmptyState icon="memory" title="Nothing remembered yet">
          Agents keep goals, decisions and constraints here so every agent in the room works from the same facts. You can add some too.
        </EmptyState>
      );
    }
    return (
      <ul className="fact-list">
        {list.map((fact) => (
          <FactItem
            key={fact.number}
            fact={fact}
            onEdit={(f, draft) => api.call('memory.edit', { ...ref, number: f.number, ...draft }).then(facts.reload)}
            onRetire={setRetiring}
          />
        ))}
      </ul>
    );
  };

  return (
    <div className="memory">
      <div className="board-toolbar">
        <label className="checkbox">
          <input type="checkbox" checked={showRetired} onChange={(e) => setShowRetired(e.target.checked)} />
          <span>Show retired</span>
        </label>
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)} disabled={adding || room.archived}>
          <Icon name="plus" size={14} /> Add fact
        </button>
      </div>
      {adding && (
        <div className="fact fact-new">
          <FactForm
            submitLabel="Save fact"
            onSubmit={(draft) => api.call('memory.add', { ...ref, ...draft }).then(() => { setAdding(false); facts.reload(); })}
            onCancel={() => setAdding(false)}
          />
        </div>
      )}
      {body()}
      {retiring && (
        <ConfirmDialog
          title={`Retire “${retiring.title}”?`}
          confirmLabel="Retire"
          onConfirm={() => api.call('memory.retire', { ...ref, number: retiring.number }).then(facts.reload)}
          onClose={() => setRetiring(null)}
        >
          Agents stop seeing it. It stays here under “Show retired”.
        </ConfirmDialog>
      )}
    </div>
  );
}
