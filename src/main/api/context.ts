// What every app API method works with: the app, the person acting (their actor and
// the handles that mention them), reads on the committed state, and queued writes.
import type { App } from '../app';
import type { PersonActor } from '../domain/actor';
import { normalizeHandle } from '../domain/identity/handles';
import type { Queryable, Tx } from '../store/port';

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
}

export interface ApiContext {
  readonly app: App;
  readonly host: ApiHost;
  /** Reads the committed state. */
  read<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** The person as an actor: the owner label (GitHub name when signed in, else the OS user name). */
  person(): Promise<PersonActor>;
  /** The person's names as normalised handles (owner label, GitHub login), for mentions. */
  personHandles(): Promise<string[]>;
}

export function createApiContext(app: App, host: ApiHost = {}): ApiContext {
  return {
    app,
    host,
    read: (fn) => app.core.store.read(fn),
    write: (fn) => app.core.store.write(fn),
    person: async () => ({ kind: 'person', label: (await app.auth.ownerIdentity()).ownerLabel }),
    personHandles: () => personHandlesOf(app),
  };
}

export async function personHandlesOf(app: App): Promise<string[]> {
  const owner = await app.auth.ownerIdentity();
  const handles = [owner.ownerLabel, owner.githubLogin ?? ''].map(normalizeHandle);
  // A handle with no letter or digit (a name written only in other scripts) matches nothing useful.
  return [...new Set(handles.filter((h) => /[a-z0-9]/.test(h)))];
}
