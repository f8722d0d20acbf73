// Where the person is in the app: the selected view, and inside a room its tab plus an open
// thread, task or message to scroll to.
import { createContext, useContext, useState, type ReactNode } from 'react';
import { useAppEvents } from '../api/useAppEvents';
import { LOCAL, type RoomRef } from '../lib/rooms';

export type RoomTab = 'chat' | 'board' | 'agents' | 'memory';

export type Route =
  | { view: 'home' }
  | { view: 'room'; roomId: string; place: string; tab: RoomTab; threadRoot?: number; task?: number; focus?: number }
  | { view: 'needsYou' }
  | { view: 'agents'; adding?: boolean }
  | { view: 'connect' }
  | { view: 'signIn' }
  | { view: 'settings' };

interface Navigation {
  route: Route;
  navigate: (route: Route) => void;
}

const NavigationContext = createContext<Navigation | null>(null);

export function NavigationProvider({ initial = { view: 'home' }, children }: { initial?: Route; children: ReactNode }) {
  const [route, navigate] = useState<Route>(initial);
  return <NavigationContext.Provider value={{ route, navigate }}>{children}</NavigationContext.Provider>;
}

/** Follows the desktop shell's `app.open` requests (notification, tray and menu clicks). */
export function FollowShellRequests() {
  const { navigate } = useNavigation();
  useAppEvents((event) => {
    if (event.type === 'app.open') navigate(event.route.view === 'room' ? { ...event.route, place: event.route.place ?? LOCAL } : event.route);
  });
  return null;
}

export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('useNavigation needs a NavigationProvider above it');
  return navigation;
}

/** Opens a room (by id and place) on a tab (chat by default). */
export function roomRoute(room: RoomRef, tab: RoomTab = 'chat', extra: { threadRoot?: number; task?: number; focus?: number } = {}): Route {
  return { view: 'room', roomId: room.roomId, place: room.place, tab, ...extra };
}
