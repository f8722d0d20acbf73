// A team for the team-room figures (issue 12): a throwaway PostgreSQL cluster on 127.0.0.1
// (the tests' own, test/support/postgres.ts), one database, and `serve` instances that know
// it as the tests' team (LETAGENTS_TEAM_URL_ACME) with it as their default place — each with
// its own data folder, as two machines would be. stop() ends them and the cluster.
import { startPostgres } from '../../test/support/postgres';
import { setDefaultPlace, TEAM, teamEnv } from '../../test/support/teams';
import { startServe, type Serve } from './processes';
import { workspace, type Workspace } from './workspace';

export { TEAM };

export interface BenchTeam {
  /** A new app instance (its own data folder) that knows the team, rooms going to it by default. */
  machine(): Promise<{ ws: Workspace; serve: Serve }>;
  /** Stops every instance it started, then the cluster. */
  stop(): Promise<void>;
}

export async function startTeam(): Promise<BenchTeam> {
  const cluster = await startPostgres();
  const serves: Serve[] = [];
  try {
    const url = await cluster.createDatabase();
    return {
      async machine() {
        const ws = workspace();
        await setDefaultPlace(ws.dataDir, TEAM);
        const serve = await startServe(ws.dataDir, 60_000, teamEnv(url));
        serves.push(serve);
        return { ws, serve };
      },
      async stop() {
        await Promise.all(serves.map((s) => s.stop()));
        cluster.stop();
      },
    };
  } catch (error) {
    cluster.stop();
    throw error;
  }
}
