// The Chat tab: search bar (on demand), the timeline, the composer, and the thread panel.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AgentSession, RoomSummary, SearchHit } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { useQuery } from '../../api/useQuery';
import { roomRoute, useNavigation, type Route } from '../../app/navigation';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { isEventOf, refOf, roomTitle } from '../../lib/rooms';
import { Composer } from './Composer';
import { WakeActionsProvider } from './WakeNote';
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
  const ref = refOf(room);
  const timeline = useTimeline(ref);
  const board = useQuery('tasks.board', ref, (e) => e.type === 'task.changed' && isEventOf(e, ref));
  const agentNames = agents.filter((a) => !a.ended).map((a) => a.name);
  const tasks = board.data?.tasks ?? [];
  const marked = useRef(0);
  // Whom a draft wakes, and the one-click mentions under a message that woke nobody (issue 34).
  // Asked again (a new function) when the room's "Reply to @all" or its agents change: the same draft may wake others now.
  const agentList = agentNames.join('\n');
  const replyToAll = room.replyToAll;
  const previewWake = useCallback(
    (text: string) => api.call('messages.preview', { roomId: room.id, place: room.place, text }),
    [api, room.id, room.place, replyToAll, agentList],
  );
  const wakeActions = useMemo(
    () => ({
      agentNames: agentList === '' ? [] : agentList.split('\n'),
      mention: (number: number, handle: string) =>
        api.call('messages.send', { roomId: room.id, place: room.place, text: handle, replyToNumber: number }).then(timeline.add),
    }),
    [api, room.id, room.place, agentList, timeline.add],
  );
  // What the person has read: the newest top-level message while they see the bottom of the
  // timeline, and the newest reply of the open thread. The room's read marker is one number,
  // so a reply moves it only while everything above it in the timeline is seen too.
  const reading = useRef({ atEnd: true, top: 0, reply: 0 });

  const markRead = useCallback(
    (number: number) => {
      if (number <= marked.current) return;
      marked.current = number;
      api.call('rooms.markRead', { roomId: room.id, place: room.place, number }).catch(() => {
        marked.current = 0; // try again next time
      });
    },
    [api, room.id, room.place],
  );
  const onSeenNewest = useCallback(
    (number: number) => {
      reading.current.top = Math.max(reading.current.top, number);
      markRead(Math.max(reading.current.top, reading.current.reply));
    },
    [markRead],
  );
  const onAtEnd = useCallback(
    (atEnd: boolean) => {
      reading.current.atEnd = atEnd;
      if (atEnd) markRead(Math.max(reading.current.top, reading.current.reply));
    },
    [markRead],
  );
  const onSeenReply = useCallback(
    (number: number) => {
      reading.current.reply = Math.max(reading.current.reply, number);
      if (reading.current.atEnd) markRead(Math.max(reading.current.top, reading.current.reply));
    },
    [markRead],
  );
  // Stable, so the timeline's memoised rows do not all re-render whenever the chat does.
  const openThread = useCallback(
    (root: number) => navigate(roomRoute({ roomId: room.id, place: room.place }, 'chat', { threadRoot: root, focus: route.focus })),
    [navigate, room.id, room.place, route.focus],
  );
  const openTask = useCallback((number: number) => navigate(roomRoute({ roomId: room.id, place: room.place }, 'board', { task: number })), [navigate, room.id, room.place]);
  const [searchQuery, setSearchQuery] = useState('');
  // The results close, so nothing covers the message they lead to; reopening search keeps the query.
  const choose = async (hit: SearchHit) => {
    const target = hit.threadRootNumber ?? hit.number;
    onCloseSearch();
    await timeline.jumpTo(target);
    navigate(roomRoute(ref, 'chat', { focus: target, threadRoot: hit.threadRootNumber ?? route.threadRoot }));
  };
  // Opened at a message (a search of every room, Needs you, a task's source): load the stretch around it.
  const { jumpTo } = timeline;
  const loaded = timeline.status === 'ready';
  useEffect(() => {
    if (route.focus !== undefined && loaded) void jumpTo(route.focus);
  }, [route.focus, loaded, jumpTo]);

  return (
    <ReceiptsProvider room={ref}>
      <WakeActionsProvider value={wakeActions}>
      <div className={route.threadRoot ? 'chat with-side' : 'chat'}>
        <div className="chat-main">
          {searchOpen && (
            <SearchPanel
              room={ref}
              initialQuery={searchQuery}
              onQueryChange={setSearchQuery}
              onChoose={(hit) => void choose(hit)}
              onClose={onCloseSearch}
              returnFocusTo={() => document.querySelector<HTMLElement>('.timeline')}
            />
          )}
          {timeline.status === 'loading' && <Loading label="Loading messages…" />}
          {timeline.status === 'error' && <ErrorState message={timeline.error ?? 'Messages could not load.'} onRetry={timeline.reload} />}
          {timeline.status === 'ready' && timeline.messages.length === 0 && (
            <EmptyState icon="chat" title="No messages yet">
              When agents join <strong>{roomTitle(room)}</strong>, their messages show up here. You can start the conversation too.
            </EmptyState>
          )}
          {timeline.status === 'ready' && timeline.messages.length > 0 && (
            <Timeline timeline={timeline} focusNumber={route.focus} onOpenThread={openThread} onTask={openTask} onSeenNewest={onSeenNewest} onAtEnd={onAtEnd} />
          )}
          <Composer
            label={`Message ${roomTitle(room)}`}
            placeholder={`Message ${roomTitle(room)}`}
            agentNames={agentNames}
            tasks={tasks}
            onSend={(text) => api.call('messages.send', { ...ref, text }).then(timeline.add)}
            preview={previewWake}
            disabled={room.archived}
            disabledReason="This room is archived: unarchive it to post."
          />
        </div>
        {route.threadRoot !== undefined && (
          <ThreadPanel
            key={route.threadRoot}
            room={ref}
            rootNumber={route.threadRoot}
            agentNames={agentNames}
            tasks={tasks}
            readOnly={room.archived}
            onClose={() => navigate(roomRoute(ref, 'chat', { focus: route.focus }))}
            onTask={openTask}
            returnFocusTo={() => timelineRow(route.threadRoot!)}
            onSeen={onSeenReply}
          />
        )}
      </div>
      </WakeActionsProvider>
    </ReceiptsProvider>
  );
}
