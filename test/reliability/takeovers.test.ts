// Takeovers under load (issue 9 §3, worker-handles.md §6, §8): workers are taken over by
// other connections (helpers and HTTP sessions) while their old connections keep
// writing, sometimes with the writes queued behind an outside database lock. Each
// message carries a tag (worker, epoch, sequence). Once a takeover is acknowledged, no
// message of an earlier epoch may appear in the store that was not there already.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, connectHelper, connectHttp, ensureCliBuilt, startServe, tempDir, type ServeHandle } from '../support';
import { withAppDatabase } from './lib/dbChecks';
import { callTool, isPhrase, mustCall, PHRASES, registerWorker } from './lib/mcpCalls';
import { reliabilitySeed, seededRng, sleep } from './lib/random';

const SEED = reliabilitySeed(0x5eed_0003);
const ROOM = 'takeover-room';
const WORKERS = 6;
const TAKEOVERS = 36;

const clients: Client[] = [];
let serve: ServeHandle | undefined;
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await serve?.stop();
  await cleanupSpawned();
});

interface Tally {
  acked: Map<string, number>;
  replaced: number;
  unexpected: string[];
}

/** One connection writing as one worker in one epoch, two calls in flight, until stopped. */
class EpochWriter {
  private stopped = false;
  private seq = 0;
  readonly done: Promise<void>;

  constructor(readonly client: Client, readonly workerIndex: number, readonly workerId: string, readonly epoch: number, tally: Tally) {
    const lane = async () => {
      while (!this.stopped) {
        const text = `to|W${workerIndex}|e${epoch}|s${++this.seq}`;
        const outcome = await callTool(client, 'send_message', { worker_id: workerId, text });
        if (outcome.kind === 'ok') tally.acked.set(text, Number(String(outcome.doc.id).slice(4)));
        else if (outcome.kind === 'hard' && isPhrase(outcome.text, PHRASES.W13, PHRASES.W14)) {
          tally.replaced++;
          await sleep(15); // a replaced connection keeps trying, a little slower
        } else tally.unexpected.push(`W${workerIndex} e${epoch}: ${JSON.stringify(outcome).slice(0, 300)}`);
      }
    };
    this.done = Promise.all([lane(), lane()]).then(() => undefined);
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }
}

const TAG = /^to\|W(\d+)\|e(\d+)\|s\d+$/;

/** Tags of `worker` stored now with an epoch at or below `epoch`. */
function storedTags(dataDir: string, worker: number, epoch: number): Set<string> {
  return withAppDatabase(dataDir, (db) => {
    const rows = db.prepare('SELECT text FROM messages WHERE text LIKE ?').all(`to|W${worker}|%`) as Array<{ text: string }>;
    return new Set(rows.map((r) => r.text).filter((text) => Number(TAG.exec(text)![2]) <= epoch));
  });
}

describe('workers taken over while their old connections write', () => {
  it(`stores no write of a replaced connection after ${TAKEOVERS} acknowledged takeovers`, async () => {
    await ensureCliBuilt();
    const rng = seededRng(SEED);
    serve = await startServe();
    const dataDir = serve.dataDir;
    const connections: Client[] = [
      ...(await Promise.all(Array.from({ length: 4 }, () => connectHelper(dataDir, { cwd: tempDir(), clientName: 'cursor' })))),
      ...(await Promise.all(Array.from({ length: 2 }, () => connectHttp(serve!.mcpUrl, serve!.token)))),
    ];
    clients.push(...connections);
    await mustCall(connections[0], 'join_room', { name: ROOM });

    const tally: Tally = { acked: new Map(), replaced: 0, unexpected: [] };
    const workerIds: string[] = [];
    const holder: number[] = [];
    const epoch: number[] = [];
    /** writers.get(`${connection}:${worker}`): the connection's newest writer for the worker. */
    const writers = new Map<string, EpochWriter>();
    for (let w = 0; w < WORKERS; w++) {
      const c = w % connections.length;
      const worker = await registerWorker(connections[c], { room_id: ROOM, registration_key: `takeover-${w}-4f7a9c2e81d6b035`, display_name: `Swap${w}` });
      workerIds.push(worker.workerId);
      holder.push(c);
      epoch.push(0);
      writers.set(`${c}:${w}`, new EpochWriter(connections[c], w, worker.workerId, 0, tally));
    }

    const snapshots: Array<{ worker: number; epoch: number; tags: Set<string> }> = [];
    const outside = new Database(join(dataDir, 'letagents.db'));
    let lockedTakeovers = 0;
    for (let round = 0; round < TAKEOVERS; round++) {
      await sleep(rng.int(10, 120));
      const w = rng.int(0, WORKERS - 1);
      let next = rng.int(0, connections.length - 2);
      if (next >= holder[w]) next++;
      // A connection taking a worker back first ends its own stale writer for it.
      await writers.get(`${next}:${w}`)?.stop();
      // Sometimes another program holds the write lock, so the old connection's writes queue behind it.
      const locked = rng.chance(0.3);
      if (locked) outside.exec('BEGIN IMMEDIATE');
      const taking = callTool(connections[next], 'register_agent_session', { worker_id: workerIds[w], room_id: ROOM });
      if (locked) {
        await sleep(rng.int(50, 250));
        outside.exec('COMMIT');
        lockedTakeovers++;
      }
      const outcome = await taking;
      expect(outcome.kind, JSON.stringify(outcome)).toBe('ok');
      // Acknowledged: from now on nothing of the earlier epochs may be added.
      snapshots.push({ worker: w, epoch: epoch[w], tags: storedTags(dataDir, w, epoch[w]) });
      epoch[w]++;
      holder[w] = next;
      writers.set(`${next}:${w}`, new EpochWriter(connections[next], w, workerIds[w], epoch[w], tally));
    }
    await sleep(300);
    await Promise.all([...writers.values()].map((writer) => writer.stop()));
    outside.close();

    const late: string[] = [];
    for (const snapshot of snapshots) {
      for (const tag of storedTags(dataDir, snapshot.worker, snapshot.epoch)) {
        if (!snapshot.tags.has(tag)) late.push(`${tag} stored after W${snapshot.worker}'s takeover from epoch ${snapshot.epoch} was acknowledged`);
      }
    }
    expect(late).toEqual([]);
    expect(tally.unexpected).toEqual([]);
    // Every acknowledged write is stored, at the number the app reported.
    const storedAt = withAppDatabase(dataDir, (db) =>
      new Map((db.prepare("SELECT text, number FROM messages WHERE room_id = ? AND text LIKE 'to|%'").all(ROOM) as Array<{ text: string; number: number }>).map((r) => [r.text, r.number])),
    );
    expect([...tally.acked].filter(([text, number]) => storedAt.get(text) !== number)).toEqual([]);
    expect(tally.replaced).toBeGreaterThan(0);
    console.info(
      `takeovers: ${TAKEOVERS} takeovers (${lockedTakeovers} behind an outside write lock) across ${connections.length} connections; ` +
        `${tally.acked.size} messages acknowledged and verified, ${tally.replaced} writes of replaced connections refused, none stored late (seed ${SEED})`,
    );
  }, 120_000);
});
