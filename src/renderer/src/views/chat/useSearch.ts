// Search as the person types: waits for a pause, drops answers to older queries, and says
// whether a search is running. One room's search and the search of every room both use it.
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client';

const DEBOUNCE_MS = 200;

export interface Search<R> {
  result: R | null;
  error: string | null;
  searching: boolean;
}

/** Runs `run(query)` a moment after the query stops changing; `run` must be stable for one search target. */
export function useSearch<R>(query: string, run: (query: string) => Promise<R>): Search<R> {
  const [result, setResult] = useState<R | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  useEffect(() => {
    if (query.trim() === '') {
      setResult(null);
      setError(null);
      return;
    }
    let stale = false;
    const timer = setTimeout(() => {
      setSearching(true);
      run(query)
        .then(
          (found) => !stale && (setResult(found), setError(null)),
          (thrown: unknown) => !stale && setError(errorMessage(thrown)),
        )
        .finally(() => !stale && setSearching(false));
    }, DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [query, run]);
  return { result, error, searching };
}

/** "3 matches", "50+ matches", "No messages match.", or "Searching…". */
export function matchSummary(count: number, more: boolean, searching: boolean): string {
  if (searching) return 'Searching…';
  if (count === 0) return 'No messages match.';
  return `${count}${more ? '+' : ''} ${count === 1 && !more ? 'match' : 'matches'}`;
}
