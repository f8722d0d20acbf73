// Who wrote a message and when: name, IDE badge, owner, time.
import type { TimelineMessage } from '../../../../shared/types';
import { IdeBadge } from '../../components/IdeBadge';
import { Time } from '../../components/Time';

export function SenderLine({ message }: { message: TimelineMessage }) {
  const { sender } = message;
  return (
    <div className="sender-line">
      <span className={`sender-name sender-${message.source} truncate`} title={sender.name}>
        {sender.name}
      </span>
      {message.source === 'agent' && <IdeBadge ide={sender.ide} />}
      {message.source === 'agent' && sender.owner && <span className="sender-owner">{sender.owner}</span>}
      {message.fromYou && <span className="badge badge-person">You</span>}
      <Time className="message-time" iso={message.createdAt} />
    </div>
  );
}
