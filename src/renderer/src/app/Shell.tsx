// The window: sidebar on the left, the selected view on the right; Ctrl/Cmd+K (or Search in
// the sidebar) searches every room. A paired phone's page has its own shell (PhoneShell).
import { useEffect, useRef, useState } from 'react';
import { useAppData } from './appData';
import { roomRoute, useNavigation } from './navigation';
import { ConnectionBanner } from './ConnectionBanner';
import { refOf } from '../lib/rooms';
import { Sidebar, sortRooms } from '../views/sidebar/Sidebar';
import { RoomView } from '../views/room/RoomView';
import { NeedsYouView } from '../views/needsYou/NeedsYouView';
import { AgentsPage } from '../views/agents/AgentsPage';
import { AutomationsView } from '../views/automations/AutomationsView';
import { ConnectView } from '../views/connect/ConnectView';
import { SignInView } from '../views/signIn/SignInView';
import { SettingsView } from '../views/settings/SettingsView';
import { HomeView } from '../views/home/HomeView';
import { useApprovalNotifications } from '../views/needsYou/useApprovalNotifications';
import { useNeedsYouAnnouncements } from '../views/needsYou/useNeedsYouAnnouncements';
import { SearchAllDialog } from '../views/search/SearchAllDialog';
import { PhoneShell } from '../views/phone/PhoneShell';
import { useApi } from '../api/ApiContext';

export function Shell() {
  // A paired phone gets its own layout around the same views (issue 37).
  return useApi().host === 'phone' ? <PhoneShell /> : <DeskShell />;
}

function DeskShell() {
  const { route, navigate } = useNavigation();
  const { rooms, needsYou, info, settings } = useAppData();
  const opened = useRef(false);
  const [searching, setSearching] = useState(false);
  useNeedsYouAnnouncements(needsYou.data?.items);
  useApprovalNotifications(needsYou.data?.items, info.data?.host === 'browser' && settings.data?.notifications !== false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setSearching(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  // On start, open the top room when there is one (first run stays on the welcome).
  useEffect(() => {
    if (opened.current || rooms.status !== 'ready') return;
    opened.current = true;
    const first = sortRooms(rooms.data)[0];
    if (first && route.view === 'home') navigate(roomRoute(refOf(first)));
  }, [rooms, route.view, navigate]);

  return (
    <div className="app">
      <Sidebar onSearch={() => setSearching(true)} />
      <main className="main" id="main">
        <ConnectionBanner />
        {route.view === 'room' && <RoomView route={route} />}
        {route.view === 'needsYou' && <NeedsYouView />}
        {route.view === 'agents' && <AgentsPage />}
        {route.view === 'automations' && <AutomationsView />}
        {route.view === 'connect' && <ConnectView />}
        {route.view === 'signIn' && <SignInView />}
        {route.view === 'settings' && <SettingsView />}
        {route.view === 'home' && <HomeView />}
      </main>
      {searching && <SearchAllDialog onClose={() => setSearching(false)} />}
    </div>
  );
}
