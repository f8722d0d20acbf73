// 20,000 forged empty rooms against the poll fallback (issue 32 item 14): a teammate inserts
// them straight into the team database; the apps reach it through a transaction-mode PgBouncer
// alone, so each polls. A poll's work stays bounded by what changed, not by how many rooms there
// are: the plan of each poll statement (EXPLAIN ANALYZE of exactly what the poll sent, on the
// real cluster) reads a handful of table rows when nothing changed, a few more when one room got
// a message, and at most a bounded batch when 20,000 rooms appear at once; a send is still one
// room's hints, and a mention still wakes the agent on the other machine. What it costs in
// database CPU a minute, before and after, is bench figure B21 (npm run bench -- B21).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ChangePoll } from '../../../src/main/store/postgres/changePoll';
import { pgTypes } from '../../../src/main/store/postgres/pgTypes';
import type { SqlValue } from '../../../src/main/store/port';
import { inCi, pgbouncerInstalled, runPostgresSuites } from '../../support/postgres';
import { TEAM } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { call, send } from '../../mcp/workerHandles/tools';
import { teamWorker as worker, twoMachinesPerTest, type TwoMachines } from './twoMachinesSetup';

const FORGED_ROOMS = 20_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Table rows a plan read (returned or filtered out, every loop), per table; and how ("Seq Scan on rooms: 20002"). */
function rowsRead(node: PlanNode, into: Record<string, number> = {}, scans: string[] = []): { read: Record<string, number>; scans: string[] } {
  if (node['Relation Name']) {
    const rows = (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * node['Actual Loops'];
    into[node['Relation Name']] = (into[node['Relation Name']] ?? 0) + rows;
    if (rows > 0) scans.push(`${node['Node Type']} on ${node['Relation Name']}: ${rows}`);
  }
  for (const child of node.Plans ?? []) rowsRead(child, into, scans);
  return { read: into, scans };
}

const total = (rows: Record<string, number>) => Object.values(rows).reduce((sum, n) => sum + n, 0);

/** A poll of our own on the team database, keeping each statement it sent so its plan can be read. */
function probePoll(url: string) {
  const pool = new pg.Pool({ connectionString: url, types: pgTypes, max: 2 });
  let last: { text: string; values: SqlValue[] } | null = null;
  const hints: string[] = [];
  let rechecks = 0;
  const poll = new ChangePoll({
    query: (text, values) => {
      last = { text, values };
      return pool.query(text, values as unknown[]);
    },
    onMessage: (roomId, number) => void hints.push(`${roomId}#${number}`),
    onRecheck: () => void rechecks++,
    onTurn: (roomId, first) => void hints.push(`${roomId} turn ${first}`),
  });
  return {
    /** One poll; what it woke (message hints, re-checks), and the table rows its statement read, per table. */
    async once() {
      const before = { hints: hints.length, rechecks };
      await poll.poll();
      const sent = last!;
      const explained = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sent.text}`, sent.values as unknown[]);
      const plan = (explained.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode; 'Execution Time': number }>)[0];
      const { read, scans } = rowsRead(plan.Plan);
      return { hints: hints.slice(before.hints), rechecks: rechecks - before.rechecks, read, scans, total: total(read), ms: plan['Execution Time'] };
    },
    end: () => pool.end(),
  };
}

async function forgeRooms(machines: TwoMachines, prefix: string): Promise<void> {
  await machines.teamRows(
    `INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at)
     SELECT $1 || g, 'named', 'Forged ' || g, to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
     FROM generate_series(1, $2::int) g`,
    prefix,
    FORGED_ROOMS,
  );
  await machines.teamRows('ANALYZE');
}

describe.skipIf(!runPostgresSuites || (!pgbouncerInstalled && !inCi))('the poll fallback with 20,000 forged empty rooms', () => {
  const machines = twoMachinesPerTest({ polling: true });

  it('reads a bounded number of rows per poll, not every room; a send is one room\'s hints; a mention still wakes the agent on the other machine', async () => {
    const { a, b } = machines;
    const [onA, onB] = await Promise.all([a.connect(), b.connect()]);
    const alder = await worker(onA, 'busy', 'Alder', TEAM);
    const birch = await worker(onB, 'busy', 'Birch', TEAM);
    await forgeRooms(machines, 'forged-');
    const probe = probePoll(machines.url);
    try {
      // The first poll re-checks everything once (hints may have been missed before it).
      expect(await probe.once()).toMatchObject({ rechecks: 1 });
      await probe.once();
      const quiet = await probe.once();
      console.log(`quiet poll with ${FORGED_ROOMS} forged rooms: ${quiet.total} table rows read (${quiet.scans.join('; ')}), ${quiet.ms.toFixed(2)} ms in the database`);
      expect(quiet).toMatchObject({ hints: [], rechecks: 0 });
      expect(quiet.total, quiet.scans.join('; ')).toBeLessThanOrEqual(20);

      // One message in one room: that room's hint, no re-check, and still only a few rows read.
      const sent = await send(onA, { worker_id: alder.worker_id, text: 'one message among the forged rooms' });
      const afterSend = await probe.once();
      console.log(`poll after one send: ${afterSend.total} table rows read (${afterSend.scans.join('; ')}), ${afterSend.ms.toFixed(2)} ms`);
      expect(afterSend).toMatchObject({ hints: [`busy#${Number(sent.slice('msg_'.length))}`], rechecks: 0 });
      expect(afterSend.total, afterSend.scans.join('; ')).toBeLessThanOrEqual(100);

      // 20,000 more appear between two polls: one re-check, a bounded batch read, then quiet again.
      await forgeRooms(machines, 'more-');
      const flood = await probe.once();
      console.log(`poll after ${FORGED_ROOMS} rooms appeared: ${flood.total} table rows read (${flood.scans.join('; ')}), ${flood.ms.toFixed(2)} ms`);
      expect(flood).toMatchObject({ hints: [], rechecks: 1 });
      expect(flood.total, flood.scans.join('; ')).toBeLessThanOrEqual(2_500);
      const quietAgain = await probe.once();
      expect(quietAgain).toMatchObject({ hints: [], rechecks: 0 });
      expect(quietAgain.total, quietAgain.scans.join('; ')).toBeLessThanOrEqual(20);
    } finally {
      await probe.end();
    }

    // The apps' own polls: a mention on A wakes Birch's wait on B among the 40,000 rooms.
    const storage = await b.app.teams.connections.storage(TEAM);
    expect(storage.wakeUps().mode).toBe('poll');
    const cursor = (await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, timeout: 1_000 })).last_observed_message_id;
    let woken: { messages?: Array<{ id: string }> } | null = null;
    // The wait's own time-out is far beyond the condition below: only the poll can wake it in time.
    void call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: cursor, timeout: 170_000 }).then((r) => (woken = r), () => undefined);
    const mention = await send(onA, { worker_id: alder.worker_id, text: '@Birch through the poll' });
    await waitUntil(() => woken !== null, 20_000, "Birch's wait to wake through B's poll");
    expect(woken!.messages?.map((m) => m.id), JSON.stringify(woken)).toContain(mention);
  });
});
