// Team names (team-rooms.md §2): letters, digits, `-` and `_`, 1–40 characters, unique
// regardless of case and of `-` versus `_` (both give the same environment variable),
// `local` reserved for this computer. Also the names derived from a team's name: its
// keychain account and its environment variable.
import { DomainError } from '../domain/errors';
import { LOCAL_PLACE } from '../store/places';

/** The place of this computer's own rooms; never a team's name. */
export { LOCAL_PLACE };
/** Prefix of the environment variables that give a team's URL on headless hosts. */
export const TEAM_URL_ENV_PREFIX = 'LETAGENTS_TEAM_URL_';

const NAME_SHAPE = /^[A-Za-z0-9_-]{1,40}$/;

export class TeamNameError extends DomainError {
  constructor(message: string) {
    super('team_name_invalid', 'hard', message);
    this.name = 'TeamNameError';
  }
}

/** The name, trimmed, when it may name a team; TeamNameError says what is wrong. */
export function checkTeamName(input: string): string {
  const name = input.trim();
  if (!NAME_SHAPE.test(name)) {
    throw new TeamNameError('A team name has 1–40 letters, digits, "-" or "_" (for example acme or acme-platform).');
  }
  if (name.toLowerCase() === LOCAL_PLACE) throw new TeamNameError('"local" means this computer; choose another team name.');
  return name;
}

/** What makes two team names the same team: case and `-`/`_` do not count. */
export function teamKey(name: string): string {
  return name.toUpperCase().replace(/-/g, '_');
}

export const sameTeam = (a: string, b: string) => teamKey(a) === teamKey(b);

/** `LETAGENTS_TEAM_URL_<NAME>`: upper case, `-` as `_`. */
export function teamUrlEnvName(name: string): string {
  return `${TEAM_URL_ENV_PREFIX}${teamKey(name)}`;
}

/** The keychain account (service "LetAgents Desktop") that holds the team's URL. */
export function teamKeychainAccount(name: string): string {
  return `team-url:${teamKey(name).toLowerCase()}`;
}
