// The non-secret part of the team registry, kept in the local SQLite settings table: each
// team's name, repo patterns, plaintext permission and its URL with the password taken out
// (display order = list order), and the default place of new rooms. Never a URL with its
// password: that lives only in the keychain, or in the environment.
import type { Storage } from '../store/port';
import { getSetting, setSetting } from '../store/settingsQueries';
import { LOCAL_PLACE } from './teamNames';

const TEAMS_KEY = 'teams';
const DEFAULT_PLACE_KEY = 'teams.defaultPlace';

export interface TeamRecord {
  readonly name: string;
  readonly patterns: readonly string[];
  readonly allowPlaintext: boolean;
  /** The URL is in the keychain (`team add`); false for a team only the environment gives, kept for its patterns. */
  readonly inKeychain: boolean;
  /** The URL as it may be shown (redactTeamUrl), so listing needs no keychain; null without a keychain URL. */
  readonly shownUrl: string | null;
}

export interface TeamSettings {
  readonly teams: readonly TeamRecord[];
  /** 'local' or a team's name. */
  readonly defaultPlace: string;
}

export interface TeamSettingsAccess {
  read(): Promise<TeamSettings>;
  /**
   * Reads, changes and writes in one write transaction, so the CLI and a running app never
   * lose each other's change. `change` throws to change nothing.
   */
  update<T>(change: (current: TeamSettings) => { next: TeamSettings; result: T }): Promise<T>;
}

/**
 * The settings as last read, per store (every access to one store shares it): kept while no
 * other connection or process has committed to the file since (othersCommitStamp) and no
 * update of this app is under way. Every agent call that looks at every place reads them.
 */
interface SettingsCache {
  settings: TeamSettings | null;
  stamp: number | null;
  /** Updates running now: while any is, nothing is kept. */
  updating: number;
  /** Moves on at each update's start and end, so a read that overlapped one keeps nothing. */
  generation: number;
}

const caches = new WeakMap<Storage, SettingsCache>();

function cacheOf(store: Storage): SettingsCache {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = { settings: null, stamp: null, updating: 0, generation: 0 }));
  return cache;
}

/** The team settings in the app's store (the CLI opens the same file). */
export function teamSettingsIn(store: Storage): TeamSettingsAccess {
  const cache = cacheOf(store);
  const forget = () => {
    cache.settings = null;
    cache.generation++;
  };
  return {
    async read() {
      // Taken before the read: a commit between the two leaves an older stamp, so the next read looks again.
      const stamp = store.othersCommitStamp?.() ?? null;
      if (cache.settings && stamp !== null && stamp === cache.stamp && cache.updating === 0) return cache.settings;
      const generation = cache.generation;
      const settings = await store.read(async (q) => parseSettings(await getSetting(q, TEAMS_KEY), await getSetting(q, DEFAULT_PLACE_KEY)));
      if (stamp !== null && cache.updating === 0 && generation === cache.generation) {
        cache.settings = settings;
        cache.stamp = stamp;
      }
      return settings;
    },
    async update(change) {
      cache.updating++;
      forget();
      try {
        return await store.write(async (tx) => {
          const current = parseSettings(await getSetting(tx, TEAMS_KEY), await getSetting(tx, DEFAULT_PLACE_KEY));
          const { next, result } = change(current);
          await setSetting(tx, TEAMS_KEY, next.teams.length > 0 ? JSON.stringify(next.teams) : null);
          await setSetting(tx, DEFAULT_PLACE_KEY, next.defaultPlace === LOCAL_PLACE ? null : next.defaultPlace);
          return result;
        });
      } finally {
        cache.updating--;
        forget();
      }
    },
  };
}

/** No database yet (a fresh machine): no stored team; changing needs the database. */
export const noTeamSettings: TeamSettingsAccess = {
  read: async () => ({ teams: [], defaultPlace: LOCAL_PLACE }),
  update: () => Promise.reject(new Error('There is no LetAgents database in this data folder yet.')),
};

function parseSettings(teamsJson: string | null, defaultPlace: string | null): TeamSettings {
  return { teams: parseRecords(teamsJson), defaultPlace: defaultPlace || LOCAL_PLACE };
}

/** Tolerant: an entry this version cannot read is skipped, never a reason to lose the others. */
function parseRecords(json: string | null): TeamRecord[] {
  if (!json) return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: Record<string, unknown>): TeamRecord[] => {
    if (typeof entry !== 'object' || entry === null || typeof entry.name !== 'string') return [];
    return [{
      name: entry.name,
      patterns: Array.isArray(entry.patterns) ? entry.patterns.filter((p): p is string => typeof p === 'string') : [],
      allowPlaintext: entry.allowPlaintext === true,
      inKeychain: entry.inKeychain === true,
      shownUrl: typeof entry.shownUrl === 'string' ? entry.shownUrl : null,
    }];
  });
}
