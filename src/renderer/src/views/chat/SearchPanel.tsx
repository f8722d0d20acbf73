// Search in a room (the search button in the room header; Ctrl/Cmd+F in the desktop app):
// full-text results with highlighted snippets. Choosing one closes the results and scrolls
// the chat to it (or opens its thread), so nothing covers it; reopening keeps the query.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SearchHit } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import type { RoomRef } from '../../lib/rooms';
import { useFocusReturn } from '../../components/focus';
import { Icon } from '../../components/Icon';
import { moveBetweenHits, SearchHitButton } from './SearchHitButton';
import { matchSummary, useSearch } from './useSearch';

export interface SearchPanelProps {
  room: RoomRef;
  initialQuery?: string;
  onQueryChange?: (query: string) => void;
  onChoose: (hit: SearchHit) => void;
  onClose: () => void;
  returnFocusTo?: () => HTMLElement | null;
}

export function SearchPanel({ room, initialQuery = '', onQueryChange, onChoose, onClose, returnFocusTo }: SearchPanelProps) {
  const api = useApi();
  const [query, setQuery] = useState(initialQuery);
  const { roomId, place } = room;
  const run = useCallback((q: string) => api.call('messages.search', { roomId, place, query: q, limit: 50 }), [api, roomId, place]);
  const { result, error, searching } = useSearch(query, run);
  const input = useRef<HTMLInputElement>(null);
  useFocusReturn(returnFocusTo);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  return (
    <div className="search-panel" role="search" onKeyDown={(event) => (event.key === 'Escape' ? onClose() : moveBetweenHits(event))}>
      <div className="search-input">
        <Icon name="search" />
        <input
          ref={input}
          type="search"
          value={query}
          onChange={(e) => (setQuery(e.target.value), onQueryChange?.(e.target.value))}
          placeholder="Search messages in this room"
          aria-label="Search messages in this room"
        />
        <button type="button" className="btn btn-icon btn-small" onClick={onClose} aria-label="Close search">
          <Icon name="x" />
        </button>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      {result && (
        <div className="search-results">
          <p className="search-summary" role="status">
            {matchSummary(result.hits.length, result.hasMore, searching)}
          </p>
          <ul>
            {result.hits.map((hit) => (
              <li key={hit.number}>
                <SearchHitButton hit={hit} onChoose={onChoose} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
