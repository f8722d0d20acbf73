// One timeline row's content: a day divider when the day changes, then the message or its
// compact line. Memoised on the message and its neighbour above, so scrolling and loading
// pages re-render only rows that actually changed.
import { memo } from 'react';
import type { TimelineMessage } from '../../../../shared/types';
import { formatDay } from '../../lib/time';
import { CompactLine } from './CompactLine';
import { MessageItem } from './MessageItem';
import { continuesGroup, isCompact, startsNewDay } from './rows';

export interface TimelineRowProps {
  message: TimelineMessage;
  /** The message above, which decides the day divider and grouping. */
  previous: TimelineMessage | undefined;
  highlighted: boolean;
  /** The newest message of its sender's run: only it shows receipts without hover or focus. */
  endsRun?: boolean;
  /** Both stable across renders (the chat keeps them in callbacks), or every row re-renders. */
  onOpenThread: (root: number) => void;
  onTask: (number: number) => void;
}

export const TimelineRow = memo(function TimelineRow({ message, previous, highlighted, endsRun = true, onOpenThread, onTask }: TimelineRowProps) {
  const newDay = startsNewDay(previous, message);
  return (
    <>
      {newDay && (
        <div className="day-divider" role="separator">
          <span>{formatDay(message.createdAt)}</span>
        </div>
      )}
      {isCompact(message) ? (
        <CompactLine message={message} onOpenThread={onOpenThread} onTask={onTask} />
      ) : (
        <MessageItem message={message} continued={!newDay && continuesGroup(previous, message)} highlighted={highlighted} receiptsOnHover={!endsRun} onOpenThread={onOpenThread} onTask={onTask} />
      )}
    </>
  );
});
