// The teams of this app (team-rooms.md): the registry (keychain, environment, settings),
// one connection per team, and a single change feed for the UI. Composed by createApp.
import type { EventBus } from '../events/bus';
import type { SecretStore } from '../secrets/secretStore';
import type { Storage } from '../store/port';
import { TeamConnections } from './teamConnections';
import { TeamRegistry, type AddedTeam, type AddTeamInput, type RemovedTeam } from './teamRegistry';
import { teamSettingsIn } from './teamSettings';
import { watchTeamsChanged } from './teamsChanged';

export { LOCAL_PLACE } from './teamNames';
export { matchesRepoPattern, teamForRepo } from './repoPatterns';
export type { TeamConnectionState } from './teamConnections';
export type { RegisteredTeam, TeamSource } from './teamRegistry';
export type { TeamProbe } from './teamProbe';

export interface TeamsOptions {
  readonly store: Storage;
  readonly secrets: SecretStore;
  readonly env: NodeJS.ProcessEnv;
  readonly bus: EventBus;
  /** Watched for changes the CLI announces; ':memory:' watches nothing. */
  readonly dataDir: string;
  readonly connectTimeoutMs?: number;
}

export interface Teams {
  readonly registry: TeamRegistry;
  readonly connections: TeamConnections;
  /** Adds the team (registry.add) and keeps its tested connection. */
  add(input: AddTeamInput): Promise<AddedTeam>;
  /** Removes the team (registry.remove) and closes its connection. */
  remove(name: string): Promise<RemovedTeam>;
  /** Anything about the teams changed: the list, patterns, default place, or a connection's state. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

export function createTeams(options: TeamsOptions): Teams {
  const registry = new TeamRegistry({
    settings: teamSettingsIn(options.store),
    secrets: options.secrets,
    env: options.env,
    bus: options.bus,
    connectTimeoutMs: options.connectTimeoutMs,
  });
  const connections = new TeamConnections({ registry, bus: options.bus, connectTimeoutMs: options.connectTimeoutMs });
  registry.onChange(() => void connections.reconcile().catch((error: unknown) => console.error('teams: reconcile failed:', error)));
  const stopWatching = options.dataDir === ':memory:' ? () => undefined : watchTeamsChanged(options.dataDir, () => registry.changedElsewhere());
  return {
    registry,
    connections,
    async add(input) {
      const added = await registry.add(input);
      connections.adopt(added.team.name, added.storage, added.url, added.team.allowPlaintext);
      return added;
    },
    async remove(name) {
      const removed = await registry.remove(name);
      await connections.close(removed.name);
      if (removed.stillFromEnvironment) connections.connect(removed.name);
      return removed;
    },
    onChange(listener) {
      const offRegistry = registry.onChange(listener);
      const offStates = connections.onChange(() => listener());
      return () => {
        offRegistry();
        offStates();
      };
    },
    async close() {
      stopWatching();
      await connections.closeAll();
    },
  };
}

