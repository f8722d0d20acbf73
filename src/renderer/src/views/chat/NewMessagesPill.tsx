// "N new messages": shown when messages arrive while the reader is scrolled up.
import { Icon } from '../../components/Icon';

export function NewMessagesPill({ count, onClick }: { count: number; onClick: () => void }) {
  if (count <= 0) return null;
  return (
    <button type="button" className="new-messages-pill" onClick={onClick}>
      <Icon name="arrowDown" size={14} />
      {count === 1 ? '1 new message' : `${count} new messages`}
    </button>
  );
}
