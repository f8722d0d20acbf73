// teams.*: the team registry as the UI uses it (Settings → Teams). URLs go in (teams.add)
// and never come back out except with the password replaced by ***.
import type { TeamSummary, TeamTest } from '../../../shared/model/teams';
import type { RegisteredTeam, TeamProbe } from '../../teams';
import type { ApiContext } from '../context';
import type { Methods } from './types';

type TeamMethods = Methods<'teams.list' | 'teams.add' | 'teams.test' | 'teams.remove' | 'teams.setPatterns' | 'teams.setDefault'>;

export function teamMethods(ctx: ApiContext): TeamMethods {
  const { teams } = ctx.app;
  const summary = (team: RegisteredTeam): TeamSummary => ({
    name: team.name,
    url: team.shownUrl,
    source: team.source,
    variable: team.variable,
    patterns: [...team.patterns],
    allowPlaintext: team.allowPlaintext,
    tls: team.tls,
    connection: teams.connections.state(team.name),
  });
  const list = async () => {
    const all = await teams.registry.list();
    // Showing a team's state is a use of it: teams not opened yet start connecting, and one
    // whose URL could not be read is tried again (the keychain may be unlocked by now).
    for (const team of all) {
      const { status } = teams.connections.state(team.name);
      if (status === 'idle' || status === 'unavailable') teams.connections.connect(team.name);
    }
    return { teams: all.map(summary), defaultPlace: await teams.registry.defaultPlace() };
  };
  return {
    'teams.list': list,
    'teams.add': async ({ name, url, allowPlaintext }) => {
      const added = await teams.add({ name, url, allowPlaintext });
      return { team: summary(added.team), test: testResult(added.probe) };
    },
    'teams.test': async ({ name }) => testResult(await teams.registry.test(name)),
    'teams.remove': async ({ name }) => {
      const removed = await teams.remove(name);
      return { removed: true, stillFromEnvironment: removed.stillFromEnvironment };
    },
    'teams.setPatterns': async ({ name, patterns }) => summary(await teams.registry.setPatterns(name, patterns)),
    'teams.setDefault': async ({ place }) => {
      await teams.registry.setDefault(place);
      return list();
    },
  };
}

function testResult(probe: TeamProbe): TeamTest {
  const { reachable, reason, schemaVersion, appSchemaVersion, latencyMs, tls, serverVersion, wakeUps } = probe;
  return { reachable, reason, schemaVersion, appSchemaVersion, latencyMs, tls: { ...tls }, serverVersion, wakeUps: wakeUps && { ...wakeUps } };
}
