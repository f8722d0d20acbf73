// A room on a phone (issue 37): its name with a way back, then the chat with the composer,
// readable at phone width. The board, memory and the room's settings stay on the computer.
import { roomByRef, useAppData } from '../../app/appData';
import { useNavigation, type Route } from '../../app/navigation';
import { useQuery } from '../../api/useQuery';
import { Icon } from '../../components/Icon';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { isEventOf, roomKey, roomTitle } from '../../lib/rooms';
import { ChatView } from '../chat/ChatView';
import { useMessageAnnouncements } from '../chat/useMessageAnnouncements';

export function PhoneRoom({ route }: { route: Extract<Route, { view: 'room' }> }) {
  const { rooms } = useAppData();
  const { navigate } = useNavigation();
  const ref = { roomId: route.roomId, place: route.place };
  const room = roomByRef(rooms.data, ref);
  const agents = useQuery('workers.list', ref, (e) => e.type === 'worker.changed' && isEventOf(e, ref));
  useMessageAnnouncements(ref);
  if (rooms.status === 'loading') return <Loading label="Opening room…" />;
  if (rooms.status === 'error' && !room) return <ErrorState message={rooms.error} onRetry={rooms.reload} />;
  if (!room) return <EmptyState icon="hash" title="This room is gone">It may have been deleted.</EmptyState>;
  const chatRoute = { ...route, tab: 'chat' as const };
  return (
    <section className="room phone-room" aria-label={roomTitle(room)}>
      <header className="phone-room-header">
        <button type="button" className="btn btn-icon phone-back" onClick={() => navigate({ view: 'home' })} aria-label="Back to rooms">
          <Icon name="chevronRight" size={20} className="flip" />
        </button>
        <h1 className="truncate">{roomTitle(room)}</h1>
      </header>
      <div className="room-panel">
        <ChatView key={roomKey(ref)} room={room} route={chatRoute} agents={agents.data ?? []} searchOpen={false} onCloseSearch={() => undefined} />
      </div>
    </section>
  );
}
