// Team names, the URL as it may be shown, and teams from the environment.
import { describe, expect, it } from 'vitest';
import { environmentTeams } from '../../../src/main/teams/teamEnvironment';
import { checkTeamName, sameTeam, teamKeychainAccount, TeamNameError, teamUrlEnvName } from '../../../src/main/teams/teamNames';
import { redactTeamUrl } from '../../../src/main/teams/teamUrlDisplay';

describe('team names', () => {
  it('takes letters, digits, - and _, 1–40 characters', () => {
    expect(checkTeamName(' acme-Platform_2 ')).toBe('acme-Platform_2');
    expect(checkTeamName('a'.repeat(40))).toBe('a'.repeat(40));
    for (const bad of ['', 'a'.repeat(41), 'acme corp', 'acme.corp', 'ácme', 'acme/x']) expect(() => checkTeamName(bad), bad).toThrow(TeamNameError);
    expect(() => checkTeamName('acme corp')).toThrow(/1–40 letters, digits, "-" or "_"/);
  });

  it('reserves local, in any case', () => {
    expect(() => checkTeamName('Local')).toThrow(/"local" means this computer/);
  });

  it('counts names the same regardless of case and of - versus _', () => {
    expect(sameTeam('Acme-Corp', 'acme_corp')).toBe(true);
    expect(sameTeam('acme', 'acme2')).toBe(false);
    expect(teamUrlEnvName('acme-corp')).toBe('LETAGENTS_TEAM_URL_ACME_CORP');
    expect(teamKeychainAccount('Acme-Corp')).toBe('team-url:acme_corp');
  });
});

describe('a team URL as it may be shown', () => {
  it('hides the password and keeps user, host, port, database and TLS mode', () => {
    expect(redactTeamUrl('postgres://ada:s3cret@db.example.com:5432/team?sslmode=verify-full')).toBe('postgres://ada:***@db.example.com:5432/team?sslmode=verify-full');
    expect(redactTeamUrl('postgresql://ada@localhost/team')).toBe('postgresql://ada@localhost/team');
  });

  it('drops every other parameter (one may hold a password) and never echoes what it cannot parse', () => {
    const shown = redactTeamUrl('postgres://ada@db.example.com/team?password=s3cret&sslmode=require&application_name=x');
    expect(shown).toBe('postgres://ada@db.example.com/team?sslmode=require');
    expect(redactTeamUrl('not a url s3cret')).toBe('(not a valid URL)');
  });
});

describe('teams from the environment', () => {
  it('finds LETAGENTS_TEAM_URL_<NAME>, spelled like a stored team when one matches', () => {
    const env = { LETAGENTS_TEAM_URL_ACME_CORP: 'postgres://a@h/d', LETAGENTS_TEAM_URL_NIGHTLY: 'postgres://b@h/d', LETAGENTS_TEAM_URL_EMPTY: ' ', PATH: '/bin' };
    const { teams, problems } = environmentTeams(env, ['Acme-Corp']);
    expect(teams).toEqual([
      { name: 'Acme-Corp', variable: 'LETAGENTS_TEAM_URL_ACME_CORP', url: 'postgres://a@h/d' },
      { name: 'nightly', variable: 'LETAGENTS_TEAM_URL_NIGHTLY', url: 'postgres://b@h/d' },
    ]);
    expect(problems).toEqual([]);
  });

  it('reports variables that name no valid team', () => {
    const { teams, problems } = environmentTeams({ LETAGENTS_TEAM_URL_LOCAL: 'postgres://h/d', 'LETAGENTS_TEAM_URL_A.B': 'postgres://h/d' }, []);
    expect(teams).toEqual([]);
    expect(problems.map((p) => p.variable)).toEqual(['LETAGENTS_TEAM_URL_LOCAL', 'LETAGENTS_TEAM_URL_A.B']);
    expect(problems[0].problem).toMatch(/"local" means this computer/);
  });
});
