// A room: header, then Chat · Board · Agents · Memory. The header's search button opens
// search in the chat; so does Ctrl/Cmd+F in the desktop app (in a browser it stays the
// browser's own find).
import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import { roomByRef, useAppData } from '../../app/appData';
import { roomRoute, useNavigation, type RoomTab, type Route } from '../../app/navigation';
import { useQuery } from '../../api/useQuery';
import { Tabs, type TabSpec } from '../../components/Tabs';
import { ErrorState, Loading, EmptyState } from '../../components/StateViews';
import { ChatView } from '../chat/ChatView';
import { BoardView } from '../board/BoardView';
import { AgentsRoster } from '../agents/AgentsRoster';
import { MemoryView } from '../memory/MemoryView';
import { useMessageAnnouncements } from '../chat/useMessageAnnouncements';
import { RoomHeader } from './RoomHeader';
import { TeamOfflineNotice } from './TeamOfflineNotice';
import { useAppEvents } from '../../api/useAppEvents';
import { isEventOf, refOf, roomKey, roomTitle } from '../../lib/rooms';
import { BudgetDialog } from '../delivery/BudgetDialog';
import { RoomDeliveryBar } from '../delivery/RoomDeliveryBar';

const TABS: TabSpec<RoomTab>[] = [
  { key: 'chat', label: 'Chat', icon: 'chat' },
  { key: 'board', label: 'Board', icon: 'board' },
  { key: 'agents', label: 'Agents', icon: 'bot' },
  { key: 'memory', label: 'Memory', icon: 'memory' },
];

export function RoomView({ route }: { route: Extract<Route, { view: 'room' }> }) {
  const { rooms } = useAppData();
  const { navigate } = useNavigation();
  const api = useApi();
  const ref = { roomId: route.roomId, place: route.place };
  const room = roomByRef(rooms.data, ref);
  const agents = useQuery('workers.list', ref, (e) => e.type === 'worker.changed' && isEventOf(e, ref));
  const delivery = useQuery('delivery.room', ref, (e) => (e.type === 'meter.changed' || e.type === 'needsYou.changed') && isEventOf(e, ref));
  const [budgetOpen, setBudgetOpen] = useState(false);
  // Reachability and meters change without a write: patch them in place.
  useAppEvents((e) => {
    if (e.type === 'worker.reachability' && isEventOf(e, ref)) agents.setData((list) => list.map((a) => (a.sessionId === e.sessionId ? { ...a, reachability: e.reachability } : a)));
    if (e.type === 'meter.changed' && isEventOf(e, ref)) {
      const meters = new Map(e.sessions.map((s) => [s.sessionId, s.meter]));
      agents.setData((list) => list.map((a) => ({ ...a, meter: meters.get(a.sessionId) ?? a.meter })));
    }
  });
  const [searchOpen, setSearchOpen] = useState(false);
  useMessageAnnouncements(ref);

  useEffect(() => {
    setSearchOpen(false);
  }, [route.roomId, route.place]);
  const openSearch = useCallback(() => {
    if (route.tab !== 'chat') navigate({ ...route, tab: 'chat' });
    setSearchOpen(true);
  }, [route, navigate]);
  useEffect(() => {
    if (api.host !== 'electron') return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        openSearch();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [api.host, openSearch]);

  if (rooms.status === 'loading') return <Loading label="Opening room…" />;
  if (rooms.status === 'error' && !room) return <ErrorState message={rooms.error} onRetry={rooms.reload} />;
  if (!room) return <EmptyState icon="hash" title="This room is gone">It may have been deleted. Pick another room in the sidebar.</EmptyState>;

  const agentList = agents.data ?? [];
  return (
    <section className="room" aria-label={roomTitle(room)}>
      <TeamOfflineNotice room={room} />
      <RoomHeader
        room={room}
        agents={agentList}
        onShowAgents={() => navigate(roomRoute(refOf(room), 'agents'))}
        onSearch={openSearch}
        searchShortcut={api.host === 'electron'}
        onBudget={() => setBudgetOpen(true)}
      />
      {delivery.data && <RoomDeliveryBar room={ref} delivery={delivery.data} onBudget={() => setBudgetOpen(true)} />}
      {budgetOpen && <BudgetDialog room={ref} roomName={roomTitle(room)} current={delivery.data?.budgetTokens ?? null} meter={delivery.data?.meter} onClose={() => setBudgetOpen(false)} />}
      <Tabs tabs={TABS} selected={route.tab} onSelect={(tab) => navigate(roomRoute(refOf(room), tab))} label="Room views" idPrefix="room" />
      <div className="room-panel" id="room-panel" role="tabpanel" aria-labelledby={`room-tab-${route.tab}`}>
        {route.tab === 'chat' && <ChatView key={roomKey(ref)} room={room} route={route} agents={agentList} searchOpen={searchOpen} onCloseSearch={() => setSearchOpen(false)} />}
        {route.tab === 'board' && <BoardView key={roomKey(ref)} room={room} route={route} agents={agentList} />}
        {route.tab === 'agents' && <AgentsRoster room={ref} />}
        {route.tab === 'memory' && <MemoryView key={roomKey(ref)} room={room} />}
      </div>
    </section>
  );
}
