// Under the room name: what kind of room it is, and its code or id with a copy button.
import type { RoomSummary } from '../../../../shared/types';
import { CopyButton } from '../../components/CopyButton';

export function RoomKindLine({ room }: { room: RoomSummary }) {
  if (room.kind === 'invite') {
    return (
      <span className="room-kind">
        Invite code <code className="room-code">{room.code ?? room.id}</code>
        <CopyButton text={room.code ?? room.id} label="Copy code" iconOnly />
      </span>
    );
  }
  const words = room.kind === 'repo' ? 'Repository room' : 'Named room';
  return (
    <span className="room-kind">
      {words} <code className="room-code">{room.kind === 'repo' ? room.repo ?? room.id : room.id}</code>
      <CopyButton text={room.id} label="Copy room name" iconOnly />
    </span>
  );
}
