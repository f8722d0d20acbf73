// The teams.* part of the API double: teams kept in memory with the rules the UI relies on
// (a URL shown only without its password, unique names, patterns checked by the real
// function, a default place that must exist), and teams.changed pushed after each change.
import type { ApiImplementation } from '../../../src/main/api/dispatcher';
import { DomainError } from '../../../src/main/domain/errors';
import { checkRepoPatterns } from '../../../src/main/teams/repoPatterns';
import { redactTeamUrl } from '../../../src/main/teams/teamUrlDisplay';
import type { AppEvent } from '../../../src/shared/events';
import type { TeamSummary, TeamsList, TeamTest } from '../../../src/shared/types';

export interface FakeTeams extends TeamsList {
  /** What teams.test answers (and teams.add reports). */
  test: TeamTest;
}

export const REACHABLE: TeamTest = {
  reachable: true,
  reason: null,
  schemaVersion: 2,
  appSchemaVersion: 2,
  latencyMs: 0.8,
  tls: { on: true, mode: 'verify-full', verified: true },
  serverVersion: '16.4',
  wakeUps: { mode: 'listen', direct: false, pollSeconds: 5 },
};

export function emptyTeams(): FakeTeams {
  return { teams: [], defaultPlace: 'local', test: REACHABLE };
}

/** A team as teams.list shows it. */
export function fakeTeam(name: string, extra: Partial<TeamSummary> = {}): TeamSummary {
  return {
    name,
    url: `postgres://ada:***@db.${name}.example.com:5432/${name}?sslmode=verify-full`,
    source: 'keychain',
    variable: null,
    patterns: [],
    allowPlaintext: false,
    tls: 'verify-full',
    connection: { status: 'online' },
    ...extra,
  };
}

export function teamMethods(state: FakeTeams, emit: (event: AppEvent) => void): Partial<ApiImplementation> {
  const fail = (code: string, message: string): never => {
    throw new DomainError(code, 'hard', message);
  };
  const teamOf = (name: string) => state.teams.find((t) => t.name.toLowerCase() === name.toLowerCase()) ?? fail('team_not_found', `There is no team named "${name}".`);
  const changed = () => emit({ type: 'teams.changed', connections: state.teams.map((t) => ({ name: t.name, connection: t.connection })) });
  const list = (): TeamsList => ({ teams: state.teams.map((t) => ({ ...t })), defaultPlace: state.defaultPlace });
  return {
    'teams.list': list,
    'teams.add': ({ name, url, allowPlaintext }) => {
      if (name.toLowerCase() === 'local') fail('team_name_invalid', '"local" means this computer; choose another team name.');
      if (state.teams.some((t) => t.name.toLowerCase() === name.toLowerCase())) fail('team_exists', `A team named "${name}" already exists.`);
      if (!state.test.reachable) fail('team_unreachable', `Cannot connect to the team database: ${state.test.reason}. Nothing was added.`);
      const team = fakeTeam(name, { url: redactTeamUrl(url), allowPlaintext: allowPlaintext ?? false, tls: null });
      state.teams.push(team);
      changed();
      return { team: { ...team }, test: state.test };
    },
    'teams.test': ({ name }) => (teamOf(name), state.test),
    'teams.remove': ({ name }) => {
      const team = teamOf(name);
      state.teams = state.teams.filter((t) => t !== team);
      if (state.defaultPlace === team.name) state.defaultPlace = 'local';
      changed();
      return { removed: true, stillFromEnvironment: null };
    },
    'teams.setPatterns': ({ name, patterns }) => {
      const team = teamOf(name);
      team.patterns = checkRepoPatterns(patterns);
      changed();
      return { ...team };
    },
    'teams.setDefault': ({ place }) => {
      state.defaultPlace = place === 'local' ? 'local' : teamOf(place).name;
      changed();
      return list();
    },
  };
}
