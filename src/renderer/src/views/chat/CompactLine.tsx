// Status posts and system events: one quiet line each, named like a message for screen readers.
import { memo } from 'react';
import type { TimelineMessage } from '../../../../shared/types';
import { Markdown } from '../../components/Markdown';
import { Time, useTimeText } from '../../components/Time';
import { ReplyCount } from './ReplyCount';
import { messageLabel, shownText } from './rows';

export const CompactLine = memo(function CompactLine({ message, onOpenThread, onTask }: { message: TimelineMessage; onOpenThread?: (root: number) => void; onTask?: (number: number) => void }) {
  const isStatus = message.kind === 'status';
  const when = useTimeText(message.createdAt);
  return (
    <article className={isStatus ? 'compact-line compact-status' : 'compact-line compact-event'} aria-label={messageLabel(message, when)} data-number={message.number} tabIndex={-1}>
      <span className="compact-mark" aria-hidden="true" />
      {isStatus && (
        <span className="compact-sender truncate" title={message.sender.name}>
          {message.sender.name}
        </span>
      )}
      <Markdown text={shownText(message)} messageNumber={message.number} onTask={onTask} className="markdown markdown-inline" />
      <Time className="message-time" iso={message.createdAt} />
      {onOpenThread && <ReplyCount count={message.replyCount} lastReplyAt={message.lastReplyAt} onOpen={() => onOpenThread(message.number)} />}
    </article>
  );
});
