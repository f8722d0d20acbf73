// Search every room (Ctrl/Cmd+K, or "Search" in the sidebar): results grouped by room, in
// the sidebar's order. Choosing one closes the dialog and opens that room's chat at the
// message (or its thread), highlighted and focused. ↑/↓ move between results.
import { useCallback, useId, useState } from 'react';
import type { SearchAllResult, SearchHit } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { useRoomTitle } from '../../app/appData';
import { roomRoute, useNavigation } from '../../app/navigation';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { LOCAL, roomKey, type RoomRef } from '../../lib/rooms';
import { moveBetweenHits, SearchHitButton } from '../chat/SearchHitButton';
import { matchSummary, useSearch } from '../chat/useSearch';

export function SearchAllDialog({ onClose }: { onClose: () => void }) {
  const api = useApi();
  const { navigate } = useNavigation();
  const roomName = useRoomTitle();
  const id = useId();
  const [query, setQuery] = useState('');
  const run = useCallback((q: string) => api.call('messages.searchAll', { query: q }), [api]);
  const { result, error, searching } = useSearch<SearchAllResult>(query, run);
  const choose = (room: RoomRef, hit: SearchHit) => {
    onClose();
    const target = hit.threadRootNumber ?? hit.number;
    navigate(roomRoute(room, 'chat', { focus: target, threadRoot: hit.threadRootNumber ?? undefined }));
  };
  const count = result?.groups.reduce((sum, group) => sum + group.hits.length, 0) ?? 0;
  const more = result?.groups.some((group) => group.hasMore) ?? false;
  return (
    <Dialog title="Search all rooms" onClose={onClose} wide>
      <div className="search-all" onKeyDown={moveBetweenHits}>
        <div className="search-input search-input-boxed" role="search">
          <Icon name="search" />
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search messages in every room" aria-label="Search messages in every room" data-autofocus />
        </div>
        {error && <p className="form-error" role="alert">{error}</p>}
        <p className="search-summary" role="status">
          {result ? `${matchSummary(count, more, searching)}${count > 0 ? ` in ${result.groups.length} ${result.groups.length === 1 ? 'room' : 'rooms'}` : ''}` : 'Type to search every room.'}
        </p>
        {result && result.groups.length > 0 && (
          <div className="search-results search-all-results">
            {result.groups.map((group, index) => (
              <section key={roomKey(group)} aria-labelledby={`${id}-${index}`} className="search-group">
                <h3 id={`${id}-${index}`} className="search-group-title truncate" title={roomName(group, group.roomId)}>
                  {roomName(group, group.roomId)}
                  {group.place !== LOCAL && <span className="muted"> · {group.place}</span>}
                </h3>
                <ul>
                  {group.hits.map((hit) => (
                    <li key={hit.number}>
                      <SearchHitButton hit={hit} onChoose={(chosen) => choose(group, chosen)} />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </div>
    </Dialog>
  );
}
