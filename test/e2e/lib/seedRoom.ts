// Seeds a fresh data folder with a very long room, straight into the app's SQLite file: the
// schema comes from the app's own migrations (openDatabase), the rows go in through one
// transaction (the full-text triggers fire as they do for the app). Deterministic content:
// agents talking in Markdown of varied length, some people, status lines and events.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { openDatabase } from '../../../src/main/store/sqlite/database';
import { databasePath } from '../../../src/main/paths';

const AGENTS = ['Juniper', 'Cedar', 'Maple', 'Willow', 'Aspen', 'Hazel'];
const TOOLS = ['Claude Code', 'Codex', 'Cursor', 'Gemini CLI'];
const WORDS = 'the build cache migration review flaky test branch rebase deploy schema index query thread task lease worker room release notes retry timeout socket handler parser renderer sidebar board column agent person merge conflict lint types bundle'.split(' ');

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeededRoom {
  readonly roomId: string;
  readonly messages: number;
}

/**
 * Writes `rooms` into `<dataDir>/letagents.db` (a new database). Rooms later in the list get
 * later timestamps, so the last one is the most recently active (the app opens it first).
 */
export function seedRooms(dataDir: string, rooms: readonly SeededRoom[], seed = 7): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = databasePath(dataDir);
  openDatabase(path).close();
  const db = new Database(path);
  db.pragma('synchronous = OFF');
  const next = random(seed);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
  const insertRoom = db.prepare("INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at, next_message_number) VALUES (?, 'named', ?, ?, ?, ?)");
  const insertMessage = db.prepare(
    'INSERT INTO messages (room_id, number, kind, source, sender, text, reply_to_number, thread_root_number, publisher_agent_key, publisher_session_id, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)',
  );
  let clock = Date.parse('2026-01-05T08:00:00Z');
  db.transaction(() => {
    for (const room of rooms) {
      const start = new Date(clock).toISOString();
      insertRoom.run(room.roomId, room.roomId, start, start, room.messages + 1);
      for (let n = 1; n <= room.messages; n++) {
        clock += 2_000;
        const at = new Date(clock).toISOString();
        const roll = next();
        const threadRoot = n > 20 && roll > 0.9 ? n - 1 - Math.floor(next() * 15) : null;
        if (roll < 0.03) {
          insertMessage.run(room.roomId, n, 'event', 'system', 'LetAgents', `${AGENTS[n % 6]} claimed task_${1 + (n % 400)}.`, null, null, null, at);
        } else if (roll < 0.1) {
          insertMessage.run(room.roomId, n, 'message', 'human', 'Ada', `@${AGENTS[n % 6]} ${words(6 + Math.floor(next() * 20))}?`, threadRoot, null, null, at);
        } else {
          const agent = AGENTS[Math.floor(next() * AGENTS.length)];
          const status = roll < 0.16;
          const body = status
            ? `[status] ${words(5)}`
            : roll < 0.3
              ? `**${words(3)}**: ${words(10)}\n\n\`\`\`ts\nconst ${WORDS[n % WORDS.length]} = await run(${n});\n\`\`\``
              : roll < 0.4
                ? `- ${words(6)}\n- ${words(8)}\n- see task_${1 + (n % 400)}`
                : words(8 + Math.floor(next() * 60));
          const key = `ada/worker-seed-${agent.toLowerCase()}`;
          insertMessage.run(room.roomId, n, status ? 'status' : 'message', 'agent', `${agent} | Ada's agent | ${TOOLS[n % TOOLS.length]}`, body, threadRoot, key, `local_seed_${agent.toLowerCase()}`, at);
        }
      }
    }
  })();
  db.close();
}
