// What every app API method works with: the app, the places rooms live in (this computer
// and the teams, named by the `place` an input carries; omitted: 'local'), the person
// acting (their actor and the handles that mention them, which in a team's room name them
// to the whole team), reads on the committed state, and queued writes.
import type { AppParts } from './appParts';
import type { PhoneControl } from './phoneControl';
import { personLabelIn } from '../auth/personLabel';
import type { PersonActor } from '../domain/actor';
import { normalizeHandle } from '../domain/identity/handles';
import { LOCAL_PLACE } from '../store/places';
import type { Viewer } from './models/messages';
import type { Queryable, Storage, Tx } from '../store/port';

/** What the hosting shell can do for the API (Electron's shell, a browser host, tests). */
export interface ApiHost {
  /** Which host runs the UI; default "browser". */
  readonly kind?: 'electron' | 'browser';
  /** Opens an https: link outside the app; absent where the host cannot. */
  openExternal?(url: string): Promise<boolean>;
  /** Opens a folder in the file manager; absent where the host cannot. */
  openPath?(path: string): Promise<boolean>;
  /** The environment the app was started with (GitHub client id source); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** The phone listener and paired phones (issue 37); absent where the host runs none. */
  readonly phone?: PhoneControl;
}

/**
 * Who makes the calls: the person at this computer (the window, a browser tab, the command
 * line), or the person on one of their paired phones (issue 37), named so answers say where
 * they came from.
 */
export type ApiCaller = { readonly kind: 'computer' } | { readonly kind: 'phone'; readonly deviceId: string; readonly deviceName: string };

export const ON_THIS_COMPUTER: ApiCaller = { kind: 'computer' };

export interface ApiContext {
  readonly app: AppParts;
  readonly host: ApiHost;
  readonly caller: ApiCaller;
  /** The place as the app names it: 'local' (the default), or the team's registered name; place_unknown otherwise. */
  place(place?: string): Promise<string>;
  /** The storage of `place` (default 'local'); place_unknown for a team the app does not know. */
  storage(place?: string): Promise<Storage>;
  /** Reads the committed state of `place` (default 'local'). */
  read<T>(fn: (q: Queryable) => Promise<T>, place?: string): Promise<T>;
  write<T>(fn: (tx: Tx) => Promise<T>, place?: string): Promise<T>;
  /**
   * The person as an actor: on this computer the owner label (GitHub name when signed in,
   * else the OS user name); in a team's room the GitHub login, else user@machine, so the
   * team can tell its people apart (team-rooms.md §4).
   */
  person(place?: string): Promise<PersonActor>;
  /** The person's names as normalised handles (owner label, GitHub login, and in a team their team name), for mentions. */
  personHandles(place?: string): Promise<string[]>;
  /** The person as a reader of messages in `place`: their handles, and in a team the label that marks their own messages. */
  viewer(place?: string): Promise<Viewer>;
  /** Whose read markers and dismissals count: '' on this computer, this app's host id in a team database (each person's own). */
  reader(place?: string): Promise<string>;
}

const isLocal = (place: string | undefined) => place === undefined || place === LOCAL_PLACE;

export function createApiContext(app: AppParts, host: ApiHost = {}, caller: ApiCaller = ON_THIS_COMPUTER): ApiContext {
  const storage = (place?: string) => (isLocal(place) ? Promise.resolve(app.places.local) : app.places.get(place!));
  return {
    app,
    host,
    caller,
    place: async (place) => (isLocal(place) ? LOCAL_PLACE : app.places.name(place!)),
    storage,
    read: async (fn, place) => (await storage(place)).read(fn),
    write: async (fn, place) => (await storage(place)).write(fn),
    person: async (place) => ({ kind: 'person', label: await personLabel(app, place) }),
    personHandles: (place) => personHandlesOf(app, place),
    viewer: (place) => viewerOf(app, place),
    reader: async (place) => (isLocal(place) ? '' : app.hub.services.hostId()),
  };
}

/** The person's name in a place (ApiContext.person). */
function personLabel(app: AppParts, place: string | undefined): Promise<string> {
  return personLabelIn(app.auth, isLocal(place) ? undefined : place);
}

export async function personHandlesOf(app: AppParts, place?: string): Promise<string[]> {
  const owner = await app.auth.ownerIdentity();
  const names = [owner.ownerLabel, owner.githubLogin ?? ''];
  if (!isLocal(place)) names.push(await personLabel(app, place));
  const handles = names.map(normalizeHandle);
  // A handle with no letter or digit (a name written only in other scripts) matches nothing useful.
  return [...new Set(handles.filter((h) => /[a-z0-9]/.test(h)))];
}

export async function viewerOf(app: AppParts, place?: string): Promise<Viewer> {
  return { handles: await personHandlesOf(app, place), label: isLocal(place) ? null : await personLabel(app, place) };
}
