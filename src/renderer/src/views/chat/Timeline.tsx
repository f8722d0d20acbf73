// The chat timeline, virtualised with @tanstack/react-virtual: newest at the bottom, it
// follows new messages while the reader is at the bottom and keeps the reader's place when
// older pages load above. Scrolled up, new messages raise the "N new messages" pill instead.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Timeline as TimelineData } from './useTimeline';
import { CompactLine } from './CompactLine';
import { MessageItem } from './MessageItem';
import { NewMessagesPill } from './NewMessagesPill';
import { continuesGroup, isCompact, startsNewDay } from './rows';
import { formatDay } from '../../lib/time';
import { Icon } from '../../components/Icon';

const END_THRESHOLD = 48;
const LOAD_MORE_PX = 600;

export interface TimelineProps {
  timeline: TimelineData;
  /** A message to bring into view and highlight (search result, link). */
  focusNumber?: number;
  onOpenThread: (root: number) => void;
  onTask: (number: number) => void;
  /** Called with the newest message number while the reader sees the bottom. */
  onSeenNewest: (number: number) => void;
}

export function Timeline({ timeline, focusNumber, onOpenThread, onTask, onSeenNewest }: TimelineProps) {
  const { messages, hasMoreBefore, hasMoreAfter } = timeline;
  const scroller = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const [seenUpTo, setSeenUpTo] = useState(0);
  const last = messages[messages.length - 1]?.number ?? 0;

  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (isCompact(messages[index]) ? 30 : 76),
    getItemKey: (index) => messages[index].number,
    overscan: 8,
    anchorTo: 'end',
    followOnAppend: !hasMoreAfter,
    scrollEndThreshold: END_THRESHOLD,
  });

  // A new window (first load, jump, back to latest): go to its bottom or to the focus.
  useLayoutEffect(() => {
    if (messages.length === 0) return;
    const index = focusNumber === undefined ? -1 : messages.findIndex((m) => m.number === focusNumber);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' });
    else virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [timeline.generation, focusNumber]);

  // Whatever arrives while the reader is at the bottom counts as seen.
  useEffect(() => {
    if (atEnd.current && !hasMoreAfter && last > 0) {
      setSeenUpTo(last);
      onSeenNewest(last);
    }
  }, [last, hasMoreAfter, onSeenNewest]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const distanceFromEnd = el.scrollHeight - el.scrollTop - el.clientHeight;
    atEnd.current = distanceFromEnd <= END_THRESHOLD;
    if (atEnd.current && !hasMoreAfter && last > seenUpTo) {
      setSeenUpTo(last);
      onSeenNewest(last);
    }
    if (el.scrollTop < LOAD_MORE_PX && hasMoreBefore) timeline.loadOlder();
    if (distanceFromEnd < LOAD_MORE_PX && hasMoreAfter) timeline.loadNewer();
  };

  const unseen = hasMoreAfter ? 0 : messages.filter((m) => m.number > seenUpTo).length;
  const goToEnd = () => {
    if (hasMoreAfter) timeline.reload();
    else virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
    atEnd.current = true;
    setSeenUpTo(last);
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div className="timeline-wrap">
      <div ref={scroller} className="timeline" onScroll={onScroll} tabIndex={0} role="region" aria-label="Messages">
        {timeline.loadingOlder && <div className="timeline-loading">Loading earlier messages…</div>}
        {!hasMoreBefore && messages.length > 0 && <div className="timeline-start">This is the start of the room.</div>}
        <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
          <div className="timeline-rows" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => {
              const message = messages[item.index];
              const previous = messages[item.index - 1];
              const newDay = startsNewDay(previous, message);
              return (
                <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="timeline-row">
                  {newDay && (
                    <div className="day-divider" role="separator">
                      <span>{formatDay(message.createdAt)}</span>
                    </div>
                  )}
                  {isCompact(message) ? (
                    <CompactLine message={message} onOpenThread={onOpenThread} onTask={onTask} />
                  ) : (
                    <MessageItem
                      message={message}
                      continued={!newDay && continuesGroup(previous, message)}
                      highlighted={message.number === focusNumber}
                      onOpenThread={onOpenThread}
                      onTask={onTask}
                    />
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <NewMessagesPill count={unseen} onClick={goToEnd} />
      {hasMoreAfter && (
        <button type="button" className="new-messages-pill" onClick={goToEnd}>
          <Icon name="arrowDown" size={14} />
          Jump to latest
        </button>
      )}
    </div>
  );
}
