// Places of this app (team-rooms.md §1, §3): this computer's storage and each team's, by
// name; where a new room goes (a repo room to the first team whose patterns match, else the
// default place); and which teams can be read right now. A team connects on first use.
import type { RoomRow } from '../store/rooms';
import type { Storage } from '../store/port';
import { LOCAL_PLACE, unknownPlace, type Places, type PlaceState } from '../store/places';
import type { TeamConnections } from './teamConnections';
import type { TeamRegistry } from './teamRegistry';
import { sameTeam } from './teamNames';

/** How long a look at every place waits for a team that is still connecting (a first use). */
const FIRST_LOOK_MS = 1_500;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function createPlaces(local: Storage, registry: TeamRegistry, connections: TeamConnections): Places {
  const teamName = async (place: string): Promise<string> => {
    const trimmed = place.trim();
    const teams = await registry.list();
    const team = teams.find((t) => sameTeam(t.name, trimmed));
    if (!team) throw unknownPlace(trimmed, teams.map((t) => t.name));
    return team.name;
  };
  const isLocal = (place: string) => place.trim().toLowerCase() === LOCAL_PLACE;
  return {
    local,
    name: async (place) => (isLocal(place) ? LOCAL_PLACE : teamName(place)),
    get: async (place) => (isLocal(place) ? local : connections.storage(await teamName(place))),
    list: async () => [LOCAL_PLACE, ...(await registry.list()).map((t) => t.name)],
    async reachable() {
      const teams = await registry.list();
      // Looking is a use: a team not opened yet (or whose URL could not be read) starts connecting,
      // and gets a moment to come online; one known to be offline is not waited for.
      const reached = await Promise.all(
        teams.map(async (team): Promise<Storage | null> => {
          if (connections.state(team.name).status === 'offline') return null;
          const storage = await connections.storage(team.name).catch(() => null);
          if (!storage) return null;
          if (storage.connection().status !== 'online') await Promise.race([storage.ready().catch(() => undefined), delay(FIRST_LOOK_MS)]);
          return storage.connection().status === 'online' ? storage : null;
        }),
      );
      return [local, ...reached.filter((s): s is Storage => s !== null)];
    },
    opened: () => connections.openedOnline(),
    state: (place): PlaceState => (isLocal(place) ? { status: 'online' } : connections.state(place)),
    async placeForNewRoom(kind: RoomRow['kind'], roomId: string) {
      if (kind === 'repo') {
        const team = await registry.teamForRepo(roomId);
        if (team) return team;
      }
      return registry.defaultPlace();
    },
  };
}
