// Places of this app (team-rooms.md §1, §3): this computer's storage and each team's, by
// name; where a new room goes (a repo room to the first team whose patterns match, else the
// default place); and which teams can be read right now. A team connects on first use.
import type { RoomRow } from '../store/rooms';
import type { Storage } from '../store/port';
import { LOCAL_PLACE, unknownPlace, type Places, type PlaceState } from '../store/places';
import type { TeamConnections } from './teamConnections';
import type { TeamRegistry } from './teamRegistry';
import { sameTeam } from './teamNames';

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
      const out: Storage[] = [local];
      for (const team of await registry.list()) {
        const { status } = connections.state(team.name);
        if (status === 'online') out.push(await connections.storage(team.name));
        // Looking is a use: a team not opened yet (or whose URL could not be read) starts connecting.
        else if (status === 'idle' || status === 'unavailable') connections.connect(team.name);
      }
      return out;
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
