// An agent may not take the name of a person in its room, nor the app's (issue 32 item 11):
// people are mentioned and told apart by name, so an agent called like one could take their
// mentions and have its words read as theirs. The people of a room are whoever posted there as
// a person, the owners of its agents, and the person registering or renaming. Names are the
// same when their mention handles are (handles.ts: "Ada Lovelace", "adalovelace"), or, for a
// name with no letter or digit a handle keeps, when they read the same ignoring case.
import type { Queryable } from '../../store/port';
import { listRoomPeopleNames } from '../../store/sessionQueries';
import { SYSTEM_SENDER } from '../actor';
import { appErrors, type DomainError } from '../errors';
import { normalizeHandle } from './handles';

/** People's names read from a room at most (a room of a few people; a forged one is cut here). */
const MAX_PEOPLE = 500;

function nameKey(name: string): string {
  const handle = normalizeHandle(name);
  return /[a-z0-9]/.test(handle) ? handle : name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Whose names an agent in a room may not take. */
export interface PeopleNames {
  /** The person (or the app) `name` would pass for, or null when it passes for no one. */
  clash(name: string): { person: string } | { app: true } | null;
}

/** The people of `roomId`, and `also` (the person registering or renaming, the agent's owner). */
export async function peopleOfRoom(q: Queryable, roomId: string, also: readonly string[]): Promise<PeopleNames> {
  const names = [...also, ...(await listRoomPeopleNames(q, roomId, MAX_PEOPLE))].filter((n) => n.trim() !== '');
  const keys = new Map(names.map((n) => [nameKey(n), n]));
  const app = nameKey(SYSTEM_SENDER);
  return {
    clash(name) {
      const key = nameKey(name);
      if (key === app) return { app: true };
      const person = keys.get(key);
      return person === undefined ? null : { person };
    },
  };
}

/** Why `name` is refused; `field` names what to change ("display_name" for an agent, "name" in the app). */
export function personNameError(name: string, clash: NonNullable<ReturnType<PeopleNames['clash']>>, field: string): DomainError {
  const whose =
    'app' in clash
      ? 'is the name of the app, which posts the room\'s events'
      : `is the name of a person in this room (${clash.person})`;
  return appErrors.invalidInput(
    `"${name}" ${whose}: an agent may not use it, so that no one takes the agent's messages for theirs. Choose another ${field}.`,
  );
}
