// Shared pieces of the worker-handle acceptance tests (worker-handles.md §11): calling
// tools through a connection, the spec's exact error phrases, and looking into (or
// locking) the database that holds the rooms from outside, as another program would —
// the app's file, or (team variant) the team's PostgreSQL database.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import pg from 'pg';
import { expect } from 'vitest';
import { toNumberedPlaceholders } from '../../../src/main/store/postgres/placeholders';
import { placeRow, type PlacedApp } from '../../support/place';
import { waitUntil } from '../../support/waitUntil';

// mcp-tools.md §2.6, copied from the spec (not from the code) so a drifted phrase fails.
export const W1 = 'Choose worker_id or agent_session_id, not both.';
export const W3 = "Pass room_id explicitly when registering or reconnecting this chat's worker.";
export const W4 =
  'To recover a lost worker pass room_id and the display_name it registered under, and neither worker_id nor registration_key.';
export const W7 = 'Unknown worker_id for this account and API. Create a worker for this chat or explicitly resume its saved handle.';
export const W8 = (name: string) =>
  `This MCP server holds no worker named "${name}" in this room, so there is nothing to recover. Register as a new worker with a registration_key.`;
export const W9 = (name: string) =>
  `This MCP server holds more than one worker named "${name}" in this room and cannot tell which one this chat is. Resume it with its saved worker_id, or register as a new worker with a registration_key.`;
export const W12 = 'This worker has no current connection in this process. Reconnect explicitly with register_agent_session(worker_id, room_id).';
export const W13 = 'This worker connection was replaced. Reconnect explicitly with its worker_id.';
export const W14 = 'This worker connection was replaced or disconnected. Reconnect explicitly with its worker_id.';
export const W15 =
  'This agent session has ended. Call register_agent_session again to go on working in this room. If the same error returns, register with a new registration_key, or have the LetAgents MCP server restarted and register once more.';
export const W16 =
  'Registered worker agent_session_id is required for this write action. Call register_agent_session for this room first, then pass the returned agent_session_id explicitly.';

/** What a hard failure looks like to an agent. */
export const hard = (text: string) => ({ isError: true, text });

// Tool results are loosely typed JSON documents; the tests assert their shape.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type Reply = any;

/** Calls a tool; a hard failure comes back as {isError, text}, anything else parsed. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Reply> {
  const result = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
  const text = result.content[0].text;
  return result.isError ? hard(text) : JSON.parse(text);
}

export interface Registration {
  worker_id: string;
  agent_session: Reply;
  requested_name?: string;
  name_taken?: true;
  name_notice?: string;
  resumed_work?: string;
}

/** register_agent_session that must succeed in durable mode. */
export async function register(client: Client, args: Record<string, unknown>): Promise<Registration> {
  const reply = await call(client, 'register_agent_session', args);
  expect(reply, JSON.stringify(reply)).toMatchObject({ success: true, worker_id: expect.stringMatching(/^worker_[0-9a-f]{32}$/) });
  return reply;
}

/** send_message that must succeed; returns the stored message id. */
export async function send(client: Client, args: Record<string, unknown>): Promise<string> {
  const reply = await call(client, 'send_message', args);
  expect(reply.isError, JSON.stringify(reply)).toBeUndefined();
  return reply.id as string;
}

export const sha256hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** worker-handles.md §1: a worker's session id in a room, computed independently of the app. */
export const workerSessionId = (workerId: string, roomId: string) => `local_${sha256hex(`${workerId}\n${roomId}`)}`;

/** The session's row, read from the database that holds the suite's rooms. */
export function sessionRow(app: PlacedApp, sessionId: string): Promise<Reply> {
  return placeRow(app, 'SELECT * FROM agent_sessions WHERE session_id = ?', sessionId);
}

/** The single value `sql` (a count) selects, from the rooms' database. */
export async function count(app: PlacedApp, sql: string, ...params: unknown[]): Promise<number> {
  const row = await placeRow(app, sql, ...params);
  return Number(Object.values(row ?? {})[0] ?? 0);
}

export interface OutsideLock {
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/**
 * An outside program holding the database's write lock until it ends; ending twice is a
 * no-op. On this computer's file: BEGIN IMMEDIATE. In a team database: a transaction that
 * holds EXCLUSIVE locks on messages and agent_sessions (reads go on, writes to them wait).
 */
export async function holdWriteLock(app: PlacedApp): Promise<OutsideLock> {
  if (app.teamUrl) {
    const client = new pg.Client({ connectionString: app.teamUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE messages, agent_sessions IN EXCLUSIVE MODE');
    let open = true;
    const end = async (sql: string) => {
      if (!open) return;
      open = false;
      await client.query(sql);
      await client.end();
    };
    return { commit: () => end('COMMIT'), rollback: () => end('ROLLBACK') };
  }
  const db = new Database(join(app.dataDir, 'letagents.db'), { fileMustExist: true, timeout: 5_000 });
  db.exec('BEGIN IMMEDIATE');
  const end = async (sql: string) => {
    if (!db.open) return;
    if (db.inTransaction) db.exec(sql);
    db.close();
  };
  return { commit: () => end('COMMIT'), rollback: () => end('ROLLBACK') };
}

/**
 * Runs `fn` with the unique room-name index lifted (to seed a state the index forbids),
 * then puts it back; `exec` runs portable SQL on the rooms' database.
 */
export async function withoutRoomNameIndex(app: PlacedApp, fn: (exec: (sql: string, ...params: unknown[]) => Promise<void>) => Promise<void>): Promise<void> {
  if (app.teamUrl) {
    const client = new pg.Client({ connectionString: app.teamUrl });
    await client.connect();
    const exec = async (sql: string, ...params: unknown[]) => void (await client.query(toNumberedPlaceholders(sql), params));
    const index = (await client.query("SELECT indexdef FROM pg_indexes WHERE indexname = 'agent_sessions_room_name'")).rows[0].indexdef as string;
    await client.query('DROP INDEX agent_sessions_room_name');
    try {
      await fn(exec);
    } finally {
      await client.query(index);
      await client.end();
    }
    return;
  }
  const db = new Database(join(app.dataDir, 'letagents.db'), { timeout: 5_000 });
  const index = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'agent_sessions_room_name'").pluck().get() as string;
  db.exec('DROP INDEX agent_sessions_room_name');
  try {
    await fn(async (sql, ...params) => void db.prepare(sql).run(...params));
  } finally {
    db.exec(index);
    db.close();
  }
}

/**
 * Re-checks `probe` until it returns true (for state only observable from outside). The bound
 * costs nothing when the state comes; 20 s, as the team variants read through PostgreSQL and
 * PgBouncer on a loaded machine.
 */
export const until = (probe: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> => waitUntil(probe, timeoutMs, what);

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The number N of a message id msg_N. */
export const messageNumber = (id: string) => Number(/^msg_(\d+)$/.exec(id)![1]);
