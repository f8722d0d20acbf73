// App-wide data the sidebar and several views share: rooms with unread counts, the teams
// and their connection states, the "Needs you" queue, sign-in state, app info and settings.
// Each stays fresh through core events.
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import type { AppInfo, AuthStatus, NeedsYouItem, RoomSummary, Settings, TeamsList } from '../../../shared/types';
import { useQuery, type Query } from '../api/useQuery';
import { useApi } from '../api/ApiContext';
import { roomTitle, sameRoom, type RoomRef } from '../lib/rooms';

interface AppData {
  rooms: Query<RoomSummary[]>;
  /** The teams, each with its connection state, and the default place. */
  teams: Query<TeamsList>;
  needsYou: Query<{ items: NeedsYouItem[] }>;
  auth: Query<AuthStatus>;
  info: Query<AppInfo>;
  settings: Query<Settings>;
}

const AppDataContext = createContext<AppData | null>(null);

export function AppDataProvider({ children }: { children: ReactNode }) {
  // A paired phone may not read teams, sign-in or settings (issue 37): it does not ask.
  const desk = useApi().host !== 'phone' ? {} : null;
  // A team's connection state changing (offline, back) changes what its rooms show.
  const rooms = useQuery('rooms.list', { includeArchived: true }, (e) => e.type === 'room.changed' || e.type === 'message.created' || e.type === 'worker.changed' || e.type === 'teams.changed');
  const needsYou = useQuery('needsYou.list', {}, (e) => e.type === 'needsYou.changed' || e.type === 'task.changed' || e.type === 'teams.changed');
  const teams = useQuery('teams.list', desk, (e) => e.type === 'teams.changed');
  const auth = useQuery('auth.status', desk, (e) => e.type === 'auth.changed');
  const info = useQuery('app.info', {}, (e) => e.type === 'auth.changed');
  const settings = useQuery('settings.get', desk);
  useTheme(settings.data?.theme);
  return <AppDataContext.Provider value={{ rooms, teams, needsYou, auth, info, settings }}>{children}</AppDataContext.Provider>;
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

/** The room `ref` names (id and place), when the list has it. */
export function roomByRef(rooms: RoomSummary[] | undefined, ref: { roomId: string; place?: string }): RoomSummary | undefined {
  return rooms?.find((room) => sameRoom({ roomId: room.id, place: room.place }, ref));
}

/** A room's title by reference (lib/rooms.ts), for things that name a room they do not carry: Needs you, the roster. */
export function useRoomTitle(): (ref: RoomRef | { roomId: string; place?: string }, fallback: string) => string {
  const { rooms } = useAppData();
  return (ref, fallback) => {
    const room = roomByRef(rooms.data, ref);
    return room ? roomTitle(room) : fallback;
  };
}
