// vitest globalSetup of the team variants of the MCP tool suite: one throwaway PostgreSQL
// cluster for all their files (and, in the "via PgBouncer" project, one PgBouncer in front of
// it), started once per run instead of once per file; each test still gets a database of its
// own (place.ts). The files learn where it is through inject('teamCluster').
import type { TestProject } from 'vitest/node';
import { runPostgresSuites, startPgBouncer, startPostgres } from './postgres';

export interface SharedTeamCluster {
  port: number;
  dir: string;
  /** The PgBouncer in front of it (transaction mode), or null in the direct project. */
  bouncerPort: number | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    teamCluster: SharedTeamCluster | null;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (!runPostgresSuites) {
    project.provide('teamCluster', null);
    return () => undefined;
  }
  // Several files' apps at once, and PgBouncer's server connections (closed after 10 s unused here).
  const cluster = await startPostgres({ maxConnections: 300 });
  const bouncer =
    project.config.env?.LETAGENTS_TEST_POOLER === 'pgbouncer'
      ? await startPgBouncer(cluster, { resetEveryTransaction: true, serverIdleSeconds: 10 }).catch((error: unknown) => {
          cluster.stop();
          throw error;
        })
      : null;
  project.provide('teamCluster', { port: cluster.port, dir: cluster.dir, bouncerPort: bouncer?.port ?? null });
  return () => {
    bouncer?.stop();
    cluster.stop();
  };
}
