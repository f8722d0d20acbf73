// A team for the team-room figures (issue 12): a throwaway PostgreSQL cluster on 127.0.0.1
// (the tests' own, test/support/postgres.ts), one database, and `serve` instances that know
// it as the tests' team (LETAGENTS_TEAM_URL_ACME) with it as their default place — each with
// its own data folder, as two machines would be. With `pooler`, a real PgBouncer in transaction
// mode in front of the cluster (issue 29), and the instances also know the same database
// through it as the team POOLED (LETAGENTS_TEAM_URL_POOLED, its listener direct). stop() ends
// them, the pooler and the cluster.
import { startPgBouncer, startPostgres, type PgBouncer } from '../../test/support/postgres';
import { withListenUrl } from '../../src/main/store/postgres/teamUrl';
import { setDefaultPlace, TEAM, teamEnv } from '../../test/support/teams';
import { cliBin, startServe, type Serve } from './processes';
import { workspace, type Workspace } from './workspace';

export { TEAM };
/** The same team database through the pooler (startTeam({ pooler: true })). */
export const POOLED_TEAM = 'pooled';

export interface BenchTeam {
  /**
   * A new app instance (its own data folder) that knows the team, rooms going to it by default;
   * `bin` runs another build (a baseline, builds.ts), whose instances share a database of their own.
   */
  machine(bin?: string): Promise<{ ws: Workspace; serve: Serve }>;
  /** The team database's URL (direct) for `bin`'s instances. */
  url(bin?: string): Promise<string>;
  /** Stops every instance it started, then the cluster. */
  stop(): Promise<void>;
}

export async function startTeam(options: { pooler?: boolean } = {}): Promise<BenchTeam> {
  const cluster = await startPostgres();
  const serves: Serve[] = [];
  let bouncer: PgBouncer | null = null;
  try {
    const urls = new Map<string, Promise<string>>([[cliBin, cluster.createDatabase()]]);
    const urlOf = (bin: string) => {
      if (!urls.has(bin)) urls.set(bin, cluster.createDatabase());
      return urls.get(bin)!;
    };
    bouncer = options.pooler ? await startPgBouncer(cluster) : null;
    return {
      async machine(bin = cliBin) {
        const url = await urlOf(bin);
        const pooled: Record<string, string> = bouncer ? { LETAGENTS_TEAM_URL_POOLED: withListenUrl(bouncer.pooledUrl(url), url) } : {};
        const ws = workspace();
        await setDefaultPlace(ws.dataDir, TEAM);
        const serve = await startServe(ws.dataDir, 60_000, { ...teamEnv(url), ...pooled }, bin);
        serves.push(serve);
        return { ws, serve };
      },
      url: (bin = cliBin) => urlOf(bin),
      async stop() {
        await Promise.all(serves.map((s) => s.stop()));
        bouncer?.stop();
        cluster.stop();
      },
    };
  } catch (error) {
    bouncer?.stop();
    cluster.stop();
    throw error;
  }
}
