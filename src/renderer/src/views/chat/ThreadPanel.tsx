// The thread panel beside the chat: the root and its replies, live, with its own composer.
import { useEffect, useRef } from 'react';
import type { TimelineMessage } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { isEventOf, type RoomRef } from '../../lib/rooms';
import { useQuery } from '../../api/useQuery';
import { useAppEvents } from '../../api/useAppEvents';
import { SidePanel } from '../../components/SidePanel';
import { ErrorState, Loading } from '../../components/StateViews';
import { Composer } from './Composer';
import { MessageItem } from './MessageItem';
import { CompactLine } from './CompactLine';
import { isCompact } from './rows';

export interface ThreadPanelProps {
  room: RoomRef;
  rootNumber: number;
  agentNames: readonly string[];
  tasks: ReadonlyArray<{ number: number; title: string }>;
  readOnly: boolean;
  onClose: () => void;
  onTask: (number: number) => void;
  /** Where focus goes on close when the button that opened the thread is gone. */
  returnFocusTo?: () => HTMLElement | null;
  /** Called with the newest reply on screen: the person has seen it. */
  onSeen?: (number: number) => void;
}

export function ThreadPanel({ room, rootNumber, agentNames, tasks, readOnly, onClose, onTask, returnFocusTo, onSeen }: ThreadPanelProps) {
  const api = useApi();
  const { roomId, place } = room;
  const thread = useQuery('messages.thread', { roomId, place, rootNumber });
  const end = useRef<HTMLDivElement>(null);

  useAppEvents((event) => {
    if (event.type !== 'message.created' || !isEventOf(event, room) || event.message.threadRootNumber !== rootNumber) return;
    thread.setData((old) => (old.replies.some((r) => r.number === event.message.number) ? old : { ...old, replies: [...old.replies, event.message] }));
  });
  const count = thread.data?.replies.length ?? 0;
  const newest = thread.data?.replies[count - 1]?.number;
  // Braces matter: newer Chromium returns a promise from scrollIntoView, and an effect must not.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);
  // Replies in the open thread are read as they arrive: they never count as unread.
  useEffect(() => {
    if (newest !== undefined) onSeen?.(newest);
  }, [newest, onSeen]);

  const send = (text: string) =>
    api.call('messages.send', { roomId, place, text, threadRootNumber: rootNumber }).then((message) => {
      thread.setData((old) => (old.replies.some((r) => r.number === message.number) ? old : { ...old, replies: [...old.replies, message] }));
    });

  const render = (message: TimelineMessage) =>
    isCompact(message) ? <CompactLine key={message.number} message={message} onTask={onTask} /> : <MessageItem key={message.number} message={message} onTask={onTask} />;

  return (
    <SidePanel
      kind="thread-panel"
      label="Thread"
      closeLabel="Close thread"
      header={<h2>Thread</h2>}
      onClose={onClose}
      returnFocusTo={returnFocusTo}
      after={<Composer label="Reply in thread" placeholder="Reply…" agentNames={agentNames} tasks={tasks} onSend={send} disabled={readOnly} disabledReason="This room is archived." autoFocus />}
    >
      {thread.status === 'loading' && <Loading label="Loading thread…" />}
      {thread.status === 'error' && <ErrorState message={thread.error} onRetry={thread.reload} />}
      {thread.data && (
        <>
          {render(thread.data.root)}
          <div className="thread-divider">{count === 0 ? 'No replies yet' : count === 1 ? '1 reply' : `${count} replies`}</div>
          {thread.data.replies.map(render)}
          <div ref={end} />
        </>
      )}
    </SidePanel>
  );
}
