// Who wrote a message and when: name, IDE badge, owner, time.
import type { TimelineMessage } from '../../../../shared/types';
import { IdeBadge } from '../../components/IdeBadge';
import { formatClock, formatDateTime } from '../../lib/time';

export function SenderLine({ message }: { message: TimelineMessage }) {
  const { sender } = message;
  return (
    <div className="sender-line">
      <span className={`sender-name sender-${message.source}`}>{sender.name}</span>
      {message.source === 'agent' && <IdeBadge ide={sender.ide} />}
      {message.source === 'agent' && sender.owner && <span className="sender-owner">{sender.owner}</span>}
      {message.source === 'human' && <span className="badge badge-person">You</span>}
      <time className="message-time" dateTime={message.createdAt} title={formatDateTime(message.createdAt)}>
        {formatClock(message.createdAt)}
      </time>
    </div>
  );
}
