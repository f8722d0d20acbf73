// The Chat tab: search bar (on demand), the timeline, the composer, and the thread panel.
import { useCallback, useRef } from 'react';
import type { AgentSession, RoomSummary, SearchHit } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { useQuery } from '../../api/useQuery';
import { roomRoute, useNavigation, type Route } from '../../app/navigation';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { roomTitle } from '../sidebar/RoomItem';
import { Composer } from './Composer';
import { SearchPanel } from './SearchPanel';
import { ThreadPanel } from './ThreadPanel';
import { Timeline } from './Timeline';
import { useTimeline } from './useTimeline';
import { ReceiptsProvider } from '../delivery/Receipts';

export interface ChatViewProps {
  room: RoomSummary;
  route: Extract<Route, { view: 'room' }>;
  agents: AgentSession[];
  searchOpen: boolean;
  onCloseSearch: () => void;
}

/** A message's row in the timeline when it is drawn, else the timeline itself. */
function timelineRow(number: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`.timeline [data-number="${number}"]`) ?? document.querySelector<HTMLElement>('.timeline');
}

export function ChatView({ room, route, agents, searchOpen, onCloseSearch }: ChatViewProps) {
  const api = useApi();
  const { navigate } = useNavigation();
  const timeline = useTimeline(room.id);
  const board = useQuery('tasks.board', { roomId: room.id }, (e) => e.type === 'task.changed' && e.roomId === room.id);
  const agentNames = agents.filter((a) => !a.ended).map((a) => a.name);
  const tasks = board.data?.tasks ?? [];
  const marked = useRef(0);

  const onSeenNewest = useCallback(
    (number: number) => {
      if (number <= marked.current) return;
      marked.current = number;
      api.call('rooms.markRead', { roomId: room.id, number }).catch(() => {
        marked.current = 0; // try again next time
      });
    },
    [api, room.id],
  );
  // Stable, so the timeline's memoised rows do not all re-render whenever the chat does.
  const openThread = useCallback((root: number) => navigate(roomRoute(room.id, 'chat', { threadRoot: root, focus: route.focus })), [navigate, room.id, route.focus]);
  const openTask = useCallback((number: number) => navigate(roomRoute(room.id, 'board', { task: number })), [navigate, room.id]);
  const choose = async (hit: SearchHit) => {
    const target = hit.threadRootNumber ?? hit.number;
    await timeline.jumpTo(target);
    navigate(roomRoute(room.id, 'chat', { focus: target, threadRoot: hit.threadRootNumber ?? route.threadRoot }));
  };

  return (
    <ReceiptsProvider roomId={room.id}>
      <div className={route.threadRoot ? 'chat with-side' : 'chat'}>
        <div className="chat-main">
          {searchOpen && <SearchPanel roomId={room.id} onChoose={(hit) => void choose(hit)} onClose={onCloseSearch} returnFocusTo={() => document.querySelector<HTMLElement>('.timeline')} />}
          {timeline.status === 'loading' && <Loading label="Loading messages…" />}
          {timeline.status === 'error' && <ErrorState message={timeline.error ?? 'Messages could not load.'} onRetry={timeline.reload} />}
          {timeline.status === 'ready' && timeline.messages.length === 0 && (
            <EmptyState icon="chat" title="No messages yet">
              When agents join <strong>{roomTitle(room)}</strong>, their messages show up here. You can start the conversation too.
            </EmptyState>
          )}
          {timeline.status === 'ready' && timeline.messages.length > 0 && (
            <Timeline timeline={timeline} focusNumber={route.focus} onOpenThread={openThread} onTask={openTask} onSeenNewest={onSeenNewest} />
          )}
          <Composer
            label={`Message ${roomTitle(room)}`}
            placeholder={`Message ${roomTitle(room)}`}
            agentNames={agentNames}
            tasks={tasks}
            onSend={(text) => api.call('messages.send', { roomId: room.id, text }).then(timeline.add)}
            disabled={room.archived}
            disabledReason="This room is archived: unarchive it to post."
          />
        </div>
        {route.threadRoot !== undefined && (
          <ThreadPanel
            key={route.threadRoot}
            roomId={room.id}
            rootNumber={route.threadRoot}
            agentNames={agentNames}
            tasks={tasks}
            readOnly={room.archived}
            onClose={() => navigate(roomRoute(room.id, 'chat', { focus: route.focus }))}
            onTask={openTask}
            returnFocusTo={() => timelineRow(route.threadRoot!)}
          />
        )}
      </div>
    </ReceiptsProvider>
  );
}
