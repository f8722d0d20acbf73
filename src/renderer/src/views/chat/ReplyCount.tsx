// "3 replies · last 14:20": opens the thread.
import { Icon } from '../../components/Icon';
import { Time } from '../../components/Time';

export function ReplyCount({ count, lastReplyAt, onOpen }: { count: number; lastReplyAt: string | null; onOpen: () => void }) {
  if (count === 0) return null;
  return (
    <button type="button" className="reply-count" onClick={onOpen}>
      <Icon name="reply" size={13} />
      <span>{count === 1 ? '1 reply' : `${count} replies`}</span>
      {lastReplyAt && <Time className="reply-last" prefix="last " iso={lastReplyAt} />}
    </button>
  );
}
