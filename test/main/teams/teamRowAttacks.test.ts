// A teammate with the team's URL writes hostile rows and NOTIFY hints (issue 24, items 1, 5
// and 8): two app instances on one throwaway PostgreSQL database, real helper agents. An
// attachment row naming this computer's files (the agent token, the app's database, /etc,
// an absolute path) makes no app read, hand out or remove them, in a team room and in a
// local room alike; a forged `worker.changed` hint with a high epoch fences nobody.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir, type HelperClient } from '../../support';
import { runPostgresSuites } from '../../support/postgres';
import { TEAM, type InProcessMachine } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { call, send } from '../../mcp/workerHandles/tools';
import { teamWorker as worker, twoMachinesPerTest } from './twoMachinesSetup';

/** Paths naming files of A's computer, as a hostile row would write them. */
function hostilePaths(dataDir: string, secretFile: string): string[] {
  const toRoot = relative(dataDir, '/');
  return ['agent-token', 'letagents.db', `${toRoot}/etc/hostname`, '../../../etc/hostname', secretFile];
}

type Attachment = { id: string; content_base64: string | null; data_url: string | null };

/** Every attachment of every message the agent read; and the read's raw text. */
async function attachmentsRead(client: HelperClient, tool: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name: tool, arguments: args })) as { content: { text: string }[] };
  const text = result.content[0].text;
  const body = JSON.parse(text) as { messages: Array<{ attachments: Attachment[] }> };
  return { text, attachments: body.messages.flatMap((m) => m.attachments) };
}

/** What A's files hold now: each must still be there, unchanged, and appear in nothing an agent read. */
function filesOf(dataDir: string, secretFile: string) {
  return {
    token: readFileSync(join(dataDir, 'agent-token'), 'utf8').trim(),
    secret: readFileSync(secretFile, 'utf8'),
    databaseThere: existsSync(join(dataDir, 'letagents.db')),
    tokenThere: existsSync(join(dataDir, 'agent-token')),
  };
}

/** The rows and reads of one attack, in the place `insert` writes to. */
async function attackThroughAttachments(
  a: InProcessMachine,
  team: string,
  room: string,
  insert: (roomId: string, number: number, id: string, path: string) => Promise<void>,
): Promise<void> {
  const secretFile = join(tempDir(), 'secret.txt');
  writeFileSync(secretFile, 'top secret of this computer');
  const [onA, other] = await Promise.all([a.connect(), a.connect()]);
  const w = await worker(onA, room, 'Alder', team);
  const birch = await worker(other, room, 'Birch', team);
  const before = (await call(onA, 'wait_for_messages', { worker_id: w.worker_id, timeout: 1_000 })).last_observed_message_id;
  const sent = await send(other, { worker_id: birch.worker_id, text: '@Alder see the files' });
  const number = Number(sent.slice('msg_'.length));
  const paths = hostilePaths(a.dataDir, secretFile);
  for (const [i, path] of paths.entries()) await insert(room, number, `att_${i}`, path);
  const files = filesOf(a.dataDir, secretFile);
  expect(files.token.length).toBeGreaterThan(0);

  // Reading messages (both tools) gives the rows' metadata, never a file's bytes.
  const reads = [
    await attachmentsRead(onA, 'read_messages', { worker_id: w.worker_id }),
    await attachmentsRead(onA, 'wait_for_messages', { worker_id: w.worker_id, after_message_id: before, timeout: 1_000 }),
  ];
  for (const read of reads) {
    expect(read.attachments.map((x) => x.id)).toEqual(paths.map((_, i) => `att_${i}`));
    expect(read.attachments.every((x) => x.content_base64 === null && x.data_url === null)).toBe(true);
    for (const secret of [files.token, files.secret, 'top secret']) {
      expect(read.text).not.toContain(secret);
      expect(read.text).not.toContain(Buffer.from(secret).toString('base64').slice(0, 12));
    }
  }

  // The person deletes the room: its rows go, no file they named does.
  const deleted = await a.api('rooms.delete', { roomId: room, place: team });
  expect(deleted, JSON.stringify(deleted)).toMatchObject({ ok: true });
  expect(filesOf(a.dataDir, secretFile)).toEqual({ ...files });
  expect(existsSync('/etc/hostname')).toBe(true);
  // A's app still works on its own database after the delete.
  const rooms = await a.api('rooms.list', {});
  expect(rooms.ok).toBe(true);
}

describe.skipIf(!runPostgresSuites)('hostile rows and hints from a teammate', () => {
  const machines = twoMachinesPerTest();

  it('team room: attachment rows naming the agent token, the app database, ../../../etc/hostname and an absolute path: no bytes read, nothing removed', async () => {
    await attackThroughAttachments(machines.a, TEAM, 'files', async (roomId, number, id, path) => {
      await machines.teamRows('INSERT INTO attachments VALUES ($1, $2, $3, $4, $5, $6, $7)', roomId, number, id, 'f.txt', 'text/plain', 10, path);
    });
  });

  it('local room (SQLite): the same rows, written into the app\'s own database: no bytes read, nothing removed', async () => {
    await attackThroughAttachments(machines.a, 'local', 'local-files', async (roomId, number, id, path) => {
      const db = new Database(join(machines.a.dataDir, 'letagents.db'));
      try {
        db.prepare('INSERT INTO attachments VALUES (?, ?, ?, ?, ?, ?, ?)').run(roomId, number, id, 'f.png', 'image/png', 10, path);
      } finally {
        db.close();
      }
    });
  });

  it('a forged worker.changed hint with a high epoch (no database change) fences no one: A\'s wait goes on and its writes are stored', async () => {
    const { a, b } = machines;
    const [onA, onB] = await Promise.all([a.connect(), b.connect()]);
    const alder = await worker(onA, 'fence', 'Alder', TEAM);
    const birch = await worker(onB, 'fence', 'Birch', TEAM);
    const cursor = (await call(onA, 'wait_for_messages', { worker_id: alder.worker_id, timeout: 1_000 })).last_observed_message_id;
    const waiting = call(onA, 'wait_for_messages', { worker_id: alder.worker_id, after_message_id: cursor, timeout: 60_000 });
    const forged = { a: 'forged-app', type: 'worker.changed', roomId: 'fence', sessionId: alder.agent_session.session_id, change: 'registered', epoch: 1_000_000 };
    const heard: unknown[] = [];
    const stopListening = a.app.core.bus.on('worker.changed', (event) => {
      if (event.remote && event.epoch === forged.epoch) heard.push(event);
    });
    await machines.teamRows('SELECT pg_notify($1, $2)', 'letagents_changes', JSON.stringify(forged));
    await waitUntil(() => heard.length > 0, 10_000, 'A to hear the hint');
    stopListening();
    // A reads the database before it acts on a hint: a bounded moment for a wrong fence to show.
    await new Promise((r) => setTimeout(r, 300));
    const sent = await send(onB, { worker_id: birch.worker_id, text: '@Alder still there?' });
    const woken = await waiting;
    expect(woken, JSON.stringify(woken)).toMatchObject({ messages: expect.arrayContaining([expect.objectContaining({ id: sent })]) });
    await send(onA, { worker_id: alder.worker_id, text: 'still mine' });
  });
});
