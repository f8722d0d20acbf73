// Nothing a test run starts outlives it (issue 35 item 21): the team cluster's global set-up and
// teardown (a real PostgreSQL and PgBouncer) leave no process; a PgBouncer's stop ends the pooler
// itself (not only the `su` around it), a cluster's stop ends the poolers in front of it, and what a
// file leaves running is named by the check every file ends with (liveServers.ts); what a test process killed
// mid-run (a timed-out worker, before its afterAll and exit hooks) left running is found by the
// run's marker and ended, as runTests.mjs does after vitest.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { afterEach, describe, expect, it } from 'vitest';
import { endProcessesOfRun, processesOfRun, RUN_MARKER } from '../../scripts/leftovers.mjs';
import { cleanupSpawned, isAlive, track, waitUntil } from '../support';
import { stopLiveServers } from '../support/liveServers';
import { pgbouncerInstalled, runPostgresSuites, startPgBouncer, startPostgres } from '../support/postgres';
import setupTeamCluster, { type SharedTeamCluster } from '../support/teamClusterSetup';

afterEach(cleanupSpawned);

/** Runs `fn` with a run marker (a fresh one unless given) in this process's environment (what it spawns inherits it). */
async function withRunMarker<T>(fn: () => Promise<T>, runId: string = randomUUID()): Promise<{ runId: string; value: T }> {
  const before = process.env[RUN_MARKER];
  process.env[RUN_MARKER] = runId;
  try {
    return { runId, value: await fn() };
  } finally {
    if (before === undefined) delete process.env[RUN_MARKER];
    else process.env[RUN_MARKER] = before;
  }
}

describe('processes a test run starts', () => {
  it.skipIf(!runPostgresSuites || !pgbouncerInstalled)("the team cluster's global set-up and teardown (PostgreSQL and PgBouncer) leave no process and no folder behind", async () => {
    let cluster: SharedTeamCluster | null = null;
    const project = { provide: (_key: string, value: SharedTeamCluster) => (cluster = value), config: { env: { LETAGENTS_TEST_POOLER: 'pgbouncer' } } } as unknown as TestProject;
    const { runId, value: teardown } = await withRunMarker(() => setupTeamCluster(project));
    const started = processesOfRun(runId);
    expect(started.some((p) => p.args.includes('pgbouncer'))).toBe(true);
    expect(started.some((p) => p.args.includes(cluster!.dir))).toBe(true);
    teardown();
    await waitUntil(() => processesOfRun(runId).length === 0, 15_000, 'the cluster and PgBouncer to end');
    expect(existsSync(cluster!.dir)).toBe(false);
  });

  it.skipIf(!runPostgresSuites || !pgbouncerInstalled)('a PgBouncer stops itself, not only the su around it; stopping a cluster stops the poolers in front of it', async () => {
    const { runId, value: cluster } = await withRunMarker(() => startPostgres());
    const { value: first } = await withRunMarker(() => startPgBouncer(cluster), runId);
    // The pooler itself (as root its parent is `su … pgbouncer`).
    const poolers = () => processesOfRun(runId).filter((p) => /^\/usr\/s?bin\/pgbouncer /.test(p.args));
    expect(poolers()).toHaveLength(1);
    first.stop();
    await waitUntil(() => poolers().length === 0, 15_000, 'the pooler itself to end');
    // Two in front of one cluster (each with files of its own), ended with it.
    await withRunMarker(() => Promise.all([startPgBouncer(cluster), startPgBouncer(cluster)]), runId);
    expect(poolers()).toHaveLength(2);
    cluster.stop();
    await waitUntil(() => processesOfRun(runId).length === 0, 15_000, 'the cluster and both poolers to end');
    expect(stopLiveServers()).toEqual([]);
  });

  it.skipIf(!runPostgresSuites)("a cluster a file did not stop is stopped by the check every file ends with, which names it", async () => {
    const { runId, value: cluster } = await withRunMarker(() => startPostgres());
    expect(processesOfRun(runId).some((p) => p.args.includes(cluster.dir))).toBe(true);
    expect(stopLiveServers()).toEqual([`PostgreSQL cluster ${cluster.dir}`]);
    await waitUntil(() => processesOfRun(runId).length === 0, 15_000, 'the cluster to end');
    expect(existsSync(cluster.dir)).toBe(false);
  });

  it('what a test process killed mid-run left running is found by the run marker and ended', async () => {
    const { runId, value: shell } = await withRunMarker(async () =>
      track(spawn('sh', ['-c', 'sleep 300 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] })),
    );
    const orphan = await new Promise<number>((resolve) => shell.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    // The test process dies without its cleanup, as a worker killed on a timeout does: its child lives on.
    const died = new Promise((resolve) => shell.once('exit', resolve));
    shell.kill('SIGKILL');
    await died;
    expect(isAlive(orphan)).toBe(true);
    expect(processesOfRun(runId).map((p) => p.pid)).toEqual([orphan]);
    const ended = await endProcessesOfRun(runId);
    expect(ended).toEqual([{ pid: orphan, args: 'sleep 300' }]);
    // Ended (a zombie until init reaps it has no environment left to carry the marker).
    await waitUntil(() => processesOfRun(runId).length === 0, 15_000, 'the orphan to end');
  });
});
