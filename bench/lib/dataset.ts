// Seeded message data sets, written straight into a fresh app database. The schema comes
// from the app's own migrations (openDatabase), rows go in with one bulk transaction, and
// the full-text index is built once at the end (FTS5 'rebuild'), which is what the
// schema's insert trigger would have produced row by row, only much faster.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { openDatabase } from '../../src/main/store/sqlite/database';
import { databasePath } from '../../src/main/paths';
import { Vocabulary, seededRandom } from './random';

export interface RoomSpec {
  readonly roomId: string;
  readonly messages: number;
  /** Seconds after the data set's start at which the room's first message was posted (default 0). */
  readonly startsAfterSeconds?: number;
}

export interface DataSet {
  readonly dataDir: string;
  readonly rooms: readonly RoomSpec[];
  readonly vocabulary: Vocabulary;
  /** Milliseconds spent generating (schema, rows, FTS, checkpoint). */
  readonly generationMs: number;
  readonly totalMessages: number;
}

const VOCABULARY_SIZE = 3_000;
const AGENTS = ['Juniper', 'Cedar', 'Maple', 'Willow', 'Aspen', 'Hazel', 'Rowan', 'Alder', 'Birch', 'Laurel', 'Sorrel', 'Yarrow'];
const TOOLS = ['Claude Code', 'Codex', 'Cursor', 'Gemini CLI'];
const PERSON = 'Ada';
const SYSTEM = 'LetAgents';
const START = Date.parse('2025-01-06T09:00:00.000Z');

/** The vocabulary a seed gives; searches pick their terms from it by rank. */
export function vocabularyFor(seed: number): Vocabulary {
  return new Vocabulary(VOCABULARY_SIZE, seededRandom(seed));
}

/** Generates `rooms` into `<dataDir>/letagents.db` (dataDir must not hold a database yet). */
export function generateDataSet(dataDir: string, rooms: readonly RoomSpec[], seed = 20250106): DataSet {
  const started = performance.now();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = databasePath(dataDir);
  openDatabase(path).close(); // the app's schema, migrated exactly as the app does it

  const vocabulary = vocabularyFor(seed);
  const random = seededRandom(seed ^ 0x5bd1e995);
  const db = new Database(path);
  db.pragma('journal_mode = OFF'); // a throw-away build: no rollback journal, no fsync
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  db.pragma('temp_store = MEMORY');
  const triggerSql = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'messages_fts_insert'").get() as { sql: string }).sql;
  const insertRoom = db.prepare(
    "INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at, next_message_number) VALUES (?, 'named', ?, ?, ?, ?)",
  );
  const insertMessage = db.prepare(
    `INSERT INTO messages (room_id, number, kind, source, sender, text, reply_to_number, thread_root_number,
       agent_prompt_kind, publisher_agent_key, publisher_session_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
  );
  const insertParticipant = db.prepare('INSERT OR IGNORE INTO thread_participants (room_id, root_number, agent_key) VALUES (?, ?, ?)');

  db.transaction(() => {
    // The FTS index is rebuilt in one pass below instead of row by row.
    db.exec('DROP TRIGGER messages_fts_insert');
    for (const room of rooms) {
      const roomStart = START + (room.startsAfterSeconds ?? 0) * 1_000;
      const stamp = new Date(roomStart).toISOString();
      insertRoom.run(room.roomId, room.roomId, stamp, stamp, room.messages + 1);
      const roots = new Int32Array(room.messages + 1); // each message's thread root, 0 when top-level
      for (let number = 1; number <= room.messages; number++) {
        const m = messageAt(random, vocabulary, number, roots);
        roots[number] = m.threadRoot ?? 0;
        const createdAt = new Date(roomStart + number * 3_000).toISOString();
        insertMessage.run(room.roomId, number, m.kind, m.source, m.sender, m.text, m.replyTo, m.threadRoot, m.agentKey, m.sessionId, createdAt);
        // What insertMessageRow records for every agent post.
        if (m.agentKey) insertParticipant.run(room.roomId, m.threadRoot ?? number, m.agentKey);
      }
    }
    db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')");
    db.exec(triggerSql);
  })();
  db.pragma('journal_mode = WAL');
  db.exec('ANALYZE');
  db.close();
  return {
    dataDir,
    rooms,
    vocabulary,
    generationMs: performance.now() - started,
    totalMessages: rooms.reduce((sum, r) => sum + r.messages, 0),
  };
}

interface GeneratedMessage {
  kind: 'message' | 'status' | 'event';
  source: 'agent' | 'human' | 'system';
  sender: string;
  text: string;
  replyTo: number | null;
  threadRoot: number | null;
  agentKey: string | null;
  sessionId: string | null;
}

/** One message: mostly agents talking, some people, a few system events; threads and quotes. */
function messageAt(random: () => number, vocabulary: Vocabulary, number: number, roots: Int32Array): GeneratedMessage {
  const roll = random();
  if (roll < 0.02) {
    return { kind: 'event', source: 'system', sender: SYSTEM, text: `${pickAgent(random)} claimed task_${1 + Math.floor(random() * 500)}.`, replyTo: null, threadRoot: null, agentKey: null, sessionId: null };
  }
  let text = vocabulary.sentence(random, 4, 40);
  if (random() < 0.1) text = `@${pickAgent(random)} ${text}`;
  let replyTo: number | null = null;
  let threadRoot: number | null = null;
  const shape = random();
  if (number > 200 && shape < 0.15) {
    // A thread reply to a recent message; the root is the target's root, as sendMessage stores it.
    replyTo = number - 1 - Math.floor(random() * 200);
    threadRoot = roots[replyTo] || replyTo;
  } else if (number > 50 && shape < 0.2) {
    replyTo = number - 1 - Math.floor(random() * 50);
  }
  if (roll < 0.1) {
    return { kind: 'message', source: 'human', sender: PERSON, text, replyTo, threadRoot, agentKey: null, sessionId: null };
  }
  const agent = Math.floor(random() * AGENTS.length);
  const name = AGENTS[agent];
  const tool = TOOLS[agent % TOOLS.length];
  return {
    kind: roll < 0.13 ? 'status' : 'message',
    source: 'agent',
    sender: `${name} | ${PERSON}'s agent | ${tool}`,
    text: roll < 0.13 ? `[status] ${text}` : text,
    replyTo,
    threadRoot,
    agentKey: `ada/worker-bench${name.toLowerCase().padEnd(27, '0')}`,
    sessionId: `local_bench${name.toLowerCase().padEnd(59, '0')}`,
  };
}

function pickAgent(random: () => number): string {
  return AGENTS[Math.floor(random() * AGENTS.length)];
}
