// Places (team-rooms.md §1): every room lives in one — 'local' (this computer's SQLite file)
// or a team (its PostgreSQL database) — and a room id is unique only within its place. The
// domain, MCP and the app API reach a place's storage through this interface; the teams
// module implements it (src/main/teams/places.ts), and a core without teams has only 'local'.
import { StorageError } from './storageErrors';
import type { RoomRow } from './rooms';
import type { ConnectionState, Storage } from './port';

export const LOCAL_PLACE = 'local';

/** A room named with its place (its id alone is unique only there). */
export interface PlacedRoom {
  readonly place: string;
  readonly roomId: string;
}

/** A place's connection as people see it: a team may also be idle (not opened yet) or unavailable (its URL cannot be read). */
export type PlaceState = ConnectionState | { readonly status: 'idle' } | { readonly status: 'unavailable'; readonly reason: string };

export interface Places {
  /** This computer's storage. */
  readonly local: Storage;
  /** The place as it is known: 'local', or the team's name as registered (any case); place_unknown otherwise, naming the teams. */
  name(place: string): Promise<string>;
  /** The place's storage (a team's connects on first use; it may be offline: its reads and writes then fail with team_offline). */
  get(place: string): Promise<Storage>;
  /** 'local', then every team in display order. */
  list(): Promise<string[]>;
  /**
   * This computer's storage and every team's that is online: a team not opened yet starts
   * connecting and is waited for briefly; one known to be offline is left out.
   */
  reachable(): Promise<Storage[]>;
  /** The team storages opened so far that are online now (no connecting, no waiting). */
  opened(): Storage[];
  state(place: string): PlaceState;
  /** Where a new room goes when no place is asked for: a repo room to the first team whose patterns match, else the default place. */
  placeForNewRoom(kind: RoomRow['kind'], roomId: string): Promise<string>;
}

/** `place`'s storage when it is open (this computer's, or a team's online now), without a look at the teams. */
export function openedStorage(places: Pick<Places, 'local' | 'opened'>, place: string): Storage | undefined {
  return place === LOCAL_PLACE ? places.local : places.opened().find((s) => s.place === place);
}

/**
 * `place`'s storage, at once when it is open: background writers (receipts, the meter) use
 * this, so an idle app reads nothing (looking a team up reads the registry's settings).
 */
export async function storageIn(places: Places, place: string): Promise<Storage> {
  return openedStorage(places, place) ?? places.get(place);
}

/** The time now by `place`'s clock (a team's database's, once it is open; this computer's until then). */
export function nowIn(places: Pick<Places, 'local' | 'opened'>, place: string): string {
  return (openedStorage(places, place) ?? places.local).now();
}

/** The places of a core without teams (tests of other parts, the in-process MCP hub): only 'local'. */
export function localOnly(local: Storage): Places {
  const unknown = (place: string) => Promise.reject(unknownPlace(place, []));
  return {
    local,
    name: async (place) => (place.trim().toLowerCase() === LOCAL_PLACE ? LOCAL_PLACE : unknown(place)),
    get: async (place) => (place.trim().toLowerCase() === LOCAL_PLACE ? local : unknown(place)),
    list: async () => [LOCAL_PLACE],
    reachable: async () => [local],
    opened: () => [],
    state: () => ({ status: 'online' }),
    placeForNewRoom: async () => LOCAL_PLACE,
  };
}

/** Neither 'local' nor a team this app knows: says which places there are (soft for agents: they can pick another). */
export class UnknownPlaceError extends StorageError {
  constructor(readonly place: string, readonly teams: readonly string[]) {
    super(
      'place_unknown',
      'soft',
      teams.length === 0
        ? `"${place}" is not a place: this app has no teams, so rooms go to "local" (this computer). Add a team with \`letagents-desktop team add\`.`
        : `"${place}" is not a place: use "local" (this computer) or one of the teams ${teams.map((t) => `"${t}"`).join(', ')}.`,
      'Pass team: "local", or the name of a team this app knows.',
      { teams: ['local', ...teams] },
    );
    this.name = 'UnknownPlaceError';
  }
}

export function unknownPlace(place: string, teams: readonly string[]): UnknownPlaceError {
  return new UnknownPlaceError(place, teams);
}
