// One chat message: avatar, sender line, Markdown text (collapsed with "Show more" when very
// long), quoted message, reply count, who got it (receipts), and a "Reply in thread" action
// that appears on hover and on keyboard focus. Its accessible name says who wrote it and when.
import { memo, useId } from 'react';
import type { TimelineMessage } from '../../../../shared/types';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { Markdown } from '../../components/Markdown';
import { Time, useTimeText } from '../../components/Time';
import { ReplyCount } from './ReplyCount';
import { messageLabel } from './rows';
import { SenderLine } from './SenderLine';
import { isLongMessage, useExpanded } from './longMessages';
import { MessageReceiptsLine } from '../delivery/Receipts';
import { WakeNote } from './WakeNote';

export interface MessageItemProps {
  message: TimelineMessage;
  /** Same sender as the message above, shortly after: no avatar or name again. */
  continued?: boolean;
  highlighted?: boolean;
  /** A message with a newer one in the same run: its receipts show on hover or focus only (issue 27). */
  receiptsOnHover?: boolean;
  onOpenThread?: (root: number) => void;
  onTask?: (number: number) => void;
}

export const MessageItem = memo(function MessageItem({ message, continued = false, highlighted = false, receiptsOnHover = false, onOpenThread, onTask }: MessageItemProps) {
  const classes = ['message', continued ? 'message-continued' : '', message.mentionsYou ? 'message-mention' : '', highlighted ? 'message-highlight' : '', receiptsOnHover ? 'message-receipts-hover' : '']
    .filter(Boolean)
    .join(' ');
  const kind = message.source === 'human' ? 'person' : message.source === 'system' ? 'system' : 'agent';
  const when = useTimeText(message.createdAt);
  return (
    <article className={classes} aria-label={messageLabel(message, when)} data-number={message.number} tabIndex={-1}>
      <div className="message-gutter">
        {continued ? (
          <Time className="message-hover-time" iso={message.createdAt} />
        ) : (
          <Avatar name={message.sender.name} kind={kind} size={32} />
        )}
      </div>
      <div className="message-body">
        {!continued && <SenderLine message={message} />}
        {message.replyTo && (
          <blockquote className="message-quote">
            <span className="message-quote-sender">{message.replyTo.senderName}</span> {message.replyTo.excerpt}
          </blockquote>
        )}
        <MessageText message={message} onTask={onTask} />
        {message.textTruncated && <p className="message-cut">This message is larger than anyone can send; only its beginning is shown.</p>}
        {onOpenThread && <ReplyCount count={message.replyCount} lastReplyAt={message.lastReplyAt} onOpen={() => onOpenThread(message.number)} />}
        <WakeNote message={message} />
        <MessageReceiptsLine number={message.number} />
      </div>
      {onOpenThread && (
        <div className="message-actions">
          <button type="button" className="btn btn-icon btn-small" onClick={() => onOpenThread(message.number)} aria-label="Reply in thread" title="Reply in thread">
            <Icon name="reply" size={15} />
          </button>
        </div>
      )}
    </article>
  );
});

/** The Markdown text; a very long one starts collapsed, with "Show more" / "Show less". */
function MessageText({ message, onTask }: { message: TimelineMessage; onTask?: (number: number) => void }) {
  const long = isLongMessage(message.text);
  const [open, toggle] = useExpanded(message.roomId, message.number);
  const id = useId();
  const text = <Markdown text={message.text} messageNumber={message.number} onTask={onTask} />;
  if (!long) return text;
  return (
    <>
      <div id={id} className={open ? 'message-text' : 'message-text collapsed'}>
        {text}
      </div>
      <button type="button" className="link-button show-more" aria-expanded={open} aria-controls={id} onClick={toggle}>
        {open ? 'Show less' : 'Show more'}
      </button>
    </>
  );
}
