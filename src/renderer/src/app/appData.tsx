// App-wide data the sidebar and several views share: rooms with unread counts, the "Needs
// you" queue, sign-in state, app info and settings. Each stays fresh through core events.
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import type { AppInfo, AuthStatus, NeedsYouItem, RoomSummary, Settings } from '../../../shared/types';
import { useQuery, type Query } from '../api/useQuery';
import { roomTitle } from '../lib/rooms';

interface AppData {
  rooms: Query<RoomSummary[]>;
  needsYou: Query<{ items: NeedsYouItem[] }>;
  auth: Query<AuthStatus>;
  info: Query<AppInfo>;
  settings: Query<Settings>;
}

const AppDataContext = createContext<AppData | null>(null);

export function AppDataProvider({ children }: { children: ReactNode }) {
  const rooms = useQuery('rooms.list', { includeArchived: true }, (e) => e.type === 'room.changed' || e.type === 'message.created' || e.type === 'worker.changed');
  const needsYou = useQuery('needsYou.list', {}, (e) => e.type === 'needsYou.changed' || e.type === 'task.changed');
  const auth = useQuery('auth.status', {}, (e) => e.type === 'auth.changed');
  const info = useQuery('app.info', {}, (e) => e.type === 'auth.changed');
  const settings = useQuery('settings.get', {});
  useTheme(settings.data?.theme);
  return <AppDataContext.Provider value={{ rooms, needsYou, auth, info, settings }}>{children}</AppDataContext.Provider>;
}

export function useAppData(): AppData {
  const data = useContext(AppDataContext);
  if (!data) throw new Error('useAppData needs an AppDataProvider above it');
  return data;
}

/** "system" follows prefers-color-scheme (CSS); "light"/"dark" force one. */
function useTheme(theme: Settings['theme'] | undefined): void {
  useEffect(() => {
    const root = document.documentElement;
    if (!theme || theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}

export function roomById(rooms: RoomSummary[] | undefined, roomId: string): RoomSummary | undefined {
  return rooms?.find((room) => room.id === roomId);
}

/** A room's title by id (lib/rooms.ts), for things that name a room they do not carry: Needs you, the roster. */
export function useRoomTitle(): (roomId: string, fallback: string) => string {
  const { rooms } = useAppData();
  return (roomId, fallback) => {
    const room = roomById(rooms.data, roomId);
    return room ? roomTitle(room) : fallback;
  };
}
