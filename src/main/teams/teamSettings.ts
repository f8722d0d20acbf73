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

/** The team settings in the app's store (the CLI opens the same file). */
export function teamSettingsIn(store: Storage): TeamSettingsAccess {
  return {
    read: async () => store.read(async (q) => parseSettings(await getSetting(q, TEAMS_KEY), await getSetting(q, DEFAULT_PLACE_KEY))),
    update: (change) =>
      store.write(async (tx) => {
        const current = parseSettings(await getSetting(tx, TEAMS_KEY), await getSetting(tx, DEFAULT_PLACE_KEY));
        const { next, result } = change(current);
        await setSetting(tx, TEAMS_KEY, next.teams.length > 0 ? JSON.stringify(next.teams) : null);
        await setSetting(tx, DEFAULT_PLACE_KEY, next.defaultPlace === LOCAL_PLACE ? null : next.defaultPlace);
        return result;
      }),
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
