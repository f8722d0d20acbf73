// The chat timeline, virtualised with @tanstack/react-virtual: newest at the bottom, it
// follows new messages while the reader is at the bottom and keeps the reader's place when
// older pages load above. Scrolled up, new messages raise the "N new messages" pill instead.
// Scrolling stays cheap in rooms of any length: React renders rows after the scroll event
// (never flushSync inside it), rows are memoised, and their Markdown is prepared ahead.
// For screen readers and the keyboard it is a list of messages: ↑/↓ (and Home/End) move
// focus from message to message, stopping on a folded run's line too (timelineStops.ts);
// Tab reaches the focused message's actions.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TimelineMessage } from '../../../../shared/types';
import type { Timeline as TimelineData } from './useTimeline';
import { NewMessagesPill } from './NewMessagesPill';
import { eventRuns } from './eventRuns';
import { continuesGroup, isCompact } from './rows';
import { TimelineRow } from './TimelineRow';
import { keyboardTarget, stopElement, type Stop } from './timelineStops';
import { Icon } from '../../components/Icon';

const END_THRESHOLD = 48;
/** Start fetching the older page this far above the top, so it is usually in before the reader gets there. */
const LOAD_MORE_PX = 1500;

/** Messages newer than `seenUpTo`, counted from the end (the window is oldest first); the person's own are never new. */
function countUnseen(messages: TimelineMessage[], seenUpTo: number): number {
  let count = 0;
  for (let i = messages.length - 1; i >= 0 && messages[i].number > seenUpTo; i--) if (messages[i].source !== 'human') count++;
  return count;
}

export interface TimelineProps {
  timeline: TimelineData;
  /** A message to bring into view and highlight (search result, link). */
  focusNumber?: number;
  onOpenThread: (root: number) => void;
  onTask: (number: number) => void;
  /** Called with the newest message number while the reader sees the bottom. */
  onSeenNewest: (number: number) => void;
  /** Called when the reader leaves the bottom (false) or reaches it again (true). */
  onAtEnd?: (atEnd: boolean) => void;
}

export function Timeline({ timeline, focusNumber, onOpenThread, onTask, onSeenNewest, onAtEnd }: TimelineProps) {
  const { messages, hasMoreBefore, hasMoreAfter } = timeline;
  const scroller = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  /** What the chat last heard: whether the reader sees the newest messages. */
  const reportedEnd = useRef(true);
  const reportEnd = (value: boolean) => {
    if (value === reportedEnd.current) return;
    reportedEnd.current = value;
    onAtEnd?.(value);
  };
  const [seenUpTo, setSeenUpTo] = useState(0);
  /** A stop to focus once it is drawn (keyboard moves, a search result). */
  const [focusStop, setFocusStop] = useState<Stop | null>(null);
  const last = messages[messages.length - 1]?.number ?? 0;
  const runs = useMemo(() => eventRuns(messages), [messages]);
  /** Folded runs the person opened, by their first event's number. */
  const [openRuns, setOpenRuns] = useState<ReadonlySet<number>>(new Set());
  const toggleRun = (first: number) =>
    setOpenRuns((old) => {
      const next = new Set(old);
      if (!next.delete(first)) next.add(first);
      return next;
    });
  /** A folded event after its run's first: drawn as nothing. */
  const foldedAway = (index: number) => {
    const run = runs[index];
    return run !== undefined && index > run.start && !openRuns.has(messages[run.start].number);
  };
  /** Where the arrow keys stop in a row: its fold line (a run's first row), then its message if drawn. */
  const stopsOf = (index: number): Stop[] => {
    if (foldedAway(index)) return [];
    const run = runs[index];
    if (run?.start !== index) return [{ index, fold: false }];
    const open = openRuns.has(messages[index].number);
    return open ? [{ index, fold: true }, { index, fold: false }] : [{ index, fold: true }];
  };

  // Stable per window: a new getItemKey makes the virtualiser re-measure every row.
  const getItemKey = useCallback((index: number) => messages[index].number, [messages]);
  const estimateSize = useCallback((index: number) => (isCompact(messages[index]) ? 30 : 76), [messages]);
  const getScrollElement = useCallback(() => scroller.current, []);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    // Rows render in React's next task, not synchronously inside the scroll event; the
    // overscan covers the frame in between.
    useFlushSync: false,
    overscan: 8,
    anchorTo: 'end',
    // Follow an append only while *we* know the reader is at the end: the virtualiser's own end
    // check can lag a scroll up by a frame (a pending write of its own) and pull the reader down.
    followOnAppend: !hasMoreAfter && atEnd.current,
    scrollEndThreshold: END_THRESHOLD,
  });

  // A new window (first load, jump, back to latest): go to its bottom or to the focus.
  useLayoutEffect(() => {
    if (messages.length === 0) return;
    const index = focusNumber === undefined ? -1 : messages.findIndex((m) => m.number === focusNumber);
    atEnd.current = index < 0;
    if (index >= 0) {
      // A message inside a folded run (a search result, a link) opens the run, so it can be shown.
      const run = runs[index];
      if (run) setOpenRuns((old) => new Set(old).add(messages[run.start].number));
      virtualizer.scrollToIndex(index, { align: 'center' });
      setFocusStop({ index, fold: false });
    } else virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [timeline.generation, focusNumber]);

  // The person's own message always comes into view, even from far up; it is seen, never "new".
  const shownSent = useRef(0);
  useLayoutEffect(() => {
    const { sent } = timeline;
    if (!sent || sent.count === shownSent.current) return;
    const index = messages.findIndex((m) => m.number === sent.number);
    if (index < 0) return; // not in yet (the newest page is loading)
    shownSent.current = sent.count;
    virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
    atEnd.current = true;
    reportEnd(true);
    setSeenUpTo(last);
    onSeenNewest(last);
  }, [timeline.sent, messages]);

  // Rows render a task after scrolling: focus the wanted one when it is in the DOM.
  useEffect(() => {
    if (focusStop === null) return;
    const row = stopElement(scroller.current, focusStop);
    if (!row) return;
    row.focus({ preventScroll: true });
    setFocusStop(null);
  });

  // Whatever arrives while the reader is at the bottom counts as seen.
  useEffect(() => {
    if (atEnd.current && !hasMoreAfter && last > 0) {
      setSeenUpTo(last);
      onSeenNewest(last);
    }
  }, [last, hasMoreAfter, onSeenNewest]);

  // Stuck to the bottom: rows of a burst are measured after they are first placed, so their
  // real heights push the end further down than the virtualiser scrolled. While the reader
  // was at the bottom, follow every growth of the content (issue 27: 352 px up after 16 quick messages).
  const lastTop = useRef(0);
  const inner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = scroller.current;
    const content = inner.current;
    if (!el || !content) return;
    const follow = () => {
      const bottom = el.scrollHeight - el.clientHeight;
      // Only ever down: a shrinking row must not move the reader.
      if (atEnd.current && !hasMoreAfter && bottom > el.scrollTop) el.scrollTop = bottom;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    return () => observer.disconnect();
  }, [hasMoreAfter]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const distanceFromEnd = el.scrollHeight - el.scrollTop - el.clientHeight;
    // Only the reader leaves the bottom, by scrolling up; content growing below does not.
    const movedUp = el.scrollTop < lastTop.current - 1;
    lastTop.current = el.scrollTop;
    if (distanceFromEnd <= END_THRESHOLD) atEnd.current = true;
    else if (movedUp) atEnd.current = false;
    reportEnd(atEnd.current && !hasMoreAfter);
    if (atEnd.current && !hasMoreAfter && last > seenUpTo) {
      setSeenUpTo(last);
      onSeenNewest(last);
    }
    if (el.scrollTop < LOAD_MORE_PX && hasMoreBefore) timeline.loadOlder();
    if (distanceFromEnd < LOAD_MORE_PX && hasMoreAfter) timeline.loadNewer();
  };

  const unseen = hasMoreAfter ? 0 : countUnseen(messages, seenUpTo);
  const goToEnd = () => {
    if (hasMoreAfter) timeline.reload();
    else virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
    atEnd.current = true;
    setSeenUpTo(last);
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const to = keyboardTarget(event, scroller.current, messages.length, stopsOf);
    if (to === null) return;
    event.preventDefault();
    virtualizer.scrollToIndex(to.index, { align: 'auto' });
    setFocusStop(to);
  };

  const items = virtualizer.getVirtualItems();
  // Positions are true only counted from the room's first message; the size once all is loaded.
  const position = (index: number) =>
    hasMoreBefore ? {} : { 'aria-posinset': index + 1, 'aria-setsize': hasMoreAfter ? -1 : messages.length };
  return (
    <div className="timeline-wrap">
      <div ref={scroller} className="timeline" onScroll={onScroll} onKeyDown={onKeyDown} tabIndex={0} role="region" aria-label="Messages">
        {/* Always one line high, so the rows below never shift when a page starts or stops loading. */}
        {hasMoreBefore ? (
          <div className="timeline-loading" aria-hidden={!timeline.loadingOlder}>
            {timeline.loadingOlder ? 'Loading earlier messages…' : '\u00a0'}
          </div>
        ) : (
          messages.length > 0 && <div className="timeline-start">This is the start of the room.</div>
        )}
        <div ref={inner} className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
          <div className="timeline-rows" role="list" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
            {items.map((item) => {
              const run = runs[item.index];
              if (foldedAway(item.index)) return <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="timeline-row-folded" aria-hidden="true" />;
              return (
              <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="timeline-row" role="listitem" {...position(item.index)}>
                {run?.start === item.index && (
                  <FoldToggle count={run.length} noun={run.noun} open={openRuns.has(messages[item.index].number)} onToggle={() => toggleRun(messages[item.index].number)} />
                )}
                {(!run || run.start !== item.index || openRuns.has(messages[item.index].number)) && <TimelineRow
                  message={messages[item.index]}
                  previous={messages[item.index - 1]}
                  endsRun={item.index === messages.length - 1 || !continuesGroup(messages[item.index], messages[item.index + 1])}
                  highlighted={messages[item.index].number === focusNumber}
                  onOpenThread={onOpenThread}
                  onTask={onTask}
                />}
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

/** "12 board updates": a folded run of room events, opened and closed in place. */
function FoldToggle({ count, noun, open, onToggle }: { count: number; noun: string; open: boolean; onToggle: () => void }) {
  return (
    <button type="button" className="event-fold" aria-expanded={open} onClick={onToggle}>
      <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
      {open ? `Hide ${count} ${noun}` : `${count} ${noun}`}
    </button>
  );
}
