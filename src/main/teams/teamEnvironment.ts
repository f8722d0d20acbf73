// Teams given by the environment on hosts without a keychain: LETAGENTS_TEAM_URL_<NAME>
// (upper case, `-` as `_`) holds the URL. Used, and never written anywhere.
import { checkTeamName, sameTeam, TEAM_URL_ENV_PREFIX } from './teamNames';

export interface EnvironmentTeam {
  /** The stored team's spelling when one matches, else the variable's suffix in lower case. */
  readonly name: string;
  readonly variable: string;
  readonly url: string;
}

export interface EnvironmentProblem {
  readonly variable: string;
  readonly problem: string;
}

/**
 * The LETAGENTS_TEAM_URL_* variables of `env`, as a plain object. An app takes them once: no
 * other program can change a running process's environment, and reading process.env whole
 * (every value crosses into native code) on each look at the teams costs ~40 µs a tool call.
 */
export function teamVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const picked: NodeJS.ProcessEnv = {};
  for (const variable of Object.keys(env)) if (variable.startsWith(TEAM_URL_ENV_PREFIX)) picked[variable] = env[variable];
  return picked;
}

/** The teams the environment gives, and the variables it cannot use (for `doctor`). */
export function environmentTeams(
  env: NodeJS.ProcessEnv,
  storedNames: readonly string[],
): { teams: EnvironmentTeam[]; problems: EnvironmentProblem[] } {
  const teams: EnvironmentTeam[] = [];
  const problems: EnvironmentProblem[] = [];
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith(TEAM_URL_ENV_PREFIX) || !value?.trim()) continue;
    const suffix = variable.slice(TEAM_URL_ENV_PREFIX.length);
    const stored = storedNames.find((name) => sameTeam(name, suffix));
    let name: string;
    try {
      name = stored ?? checkTeamName(suffix.toLowerCase());
    } catch (error) {
      problems.push({ variable, problem: (error as Error).message });
      continue;
    }
    if (teams.some((team) => sameTeam(team.name, name))) continue;
    teams.push({ name, variable, url: value.trim() });
  }
  return { teams, problems };
}
