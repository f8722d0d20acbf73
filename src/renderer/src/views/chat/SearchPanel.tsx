// Search in a room (Ctrl/Cmd+F): full-text results with highlighted snippets; choosing one
// scrolls the chat to it (or opens its thread). Closing it gives focus back where it was.
import { useEffect, useRef, useState } from 'react';
import type { SearchHit, SearchResult } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { useFocusReturn } from '../../components/focus';
import { Icon } from '../../components/Icon';
import { Time } from '../../components/Time';

const DEBOUNCE_MS = 200;

export function SearchPanel({ roomId, onChoose, onClose, returnFocusTo }: { roomId: string; onChoose: (hit: SearchHit) => void; onClose: () => void; returnFocusTo?: () => HTMLElement | null }) {
  const api = useApi();
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<SearchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useFocusReturn(returnFocusTo);

  useEffect(() => {
    input.current?.focus();
  }, []);
  useEffect(() => {
    if (query.trim() === '') {
      setResult(null);
      setError(null);
      return;
    }
    let stale = false;
    const timer = setTimeout(() => {
      setSearching(true);
      api.call('messages.search', { roomId, query, limit: 50 }).then(
        (found) => !stale && (setResult(found), setError(null)),
        (thrown: unknown) => !stale && setError(errorMessage(thrown)),
      ).finally(() => !stale && setSearching(false));
    }, DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [api, roomId, query]);

  return (
    <div className="search-panel" role="search" onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <div className="search-input">
        <Icon name="search" />
        <input ref={input} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search messages in this room" aria-label="Search messages in this room" />
        <button type="button" className="btn btn-icon btn-small" onClick={onClose} aria-label="Close search">
          <Icon name="x" />
        </button>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      {result && (
        <div className="search-results">
          <p className="search-summary" role="status">
            {searching ? 'Searching…' : result.hits.length === 0 ? 'No messages match.' : `${result.hits.length}${result.hasMore ? '+' : ''} ${result.hits.length === 1 ? 'match' : 'matches'}`}
          </p>
          <ul>
            {result.hits.map((hit) => (
              <li key={hit.number}>
                <button type="button" className="search-hit" onClick={() => onChoose(hit)}>
                  <span className="search-hit-head">
                    <strong>{hit.sender.name}</strong>
                    {hit.threadRootNumber !== null && <span className="badge">in a thread</span>}
                    <Time iso={hit.createdAt} />
                  </span>
                  <span className="search-snippet">
                    {hit.snippet.map((part, index) => (part.hit ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
