// B20 (issue 34): answers and turns per person's `@all` question in a room of five managed
// agents (the real Claude Code, a scripted fake model that answers a question only when no
// earlier answer is in its prompt, else ends its turn without posting). Per question: the
// agents' room messages (target 1), the pairs of turns that overlapped in time (from the turn
// log; target 0) and the round's duration (the question → the last turn of the round ended).
// The reference: the same room with "Reply to @all: all at once" (every agent starts at once,
// nobody has an earlier answer to read: today's five answers).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { answerUnlessAnswered, startFakeModel } from '../../test/support/fakeModels';
import { pinnedCliBin } from '../../test/support/pinnedClis';
import { overlappingTurns, type TimedTurn } from '../../test/support/turnOverlap';
import { personApi, type PersonCall } from '../lib/personApi';
import type { Figure } from '../lib/figure';
import { tempDir } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';

const NAMES = ['Ash', 'Birch', 'Cedar', 'Elm', 'Fir'] as const;
const QUESTIONS = 3;
/** One round at most (five turns one after another, each a few seconds on a loaded machine). */
const ROUND_LIMIT_MS = 3 * 60_000;

interface Round {
  readonly answers: number;
  readonly turns: number;
  readonly overlaps: number;
  readonly ms: number;
}

export const b20: Figure = {
  id: 'B20',
  what: 'answers and overlapping turns per person @all question (5 managed agents, scripted model)',
  target: '1 answer, 0 overlapping turns per question; round duration reported',
  timeLimitMs: 2 * QUESTIONS * ROUND_LIMIT_MS + 60_000,
  async run(ctx) {
    const inTurn = await measure('in_turn', ctx.log);
    const atOnce = await measure('all_at_once', ctx.log);
    const answers = summarize(inTurn.map((r) => r.answers));
    const overlaps = inTurn.map((r) => r.overlaps);
    return {
      ours: { ...answers, label: 'agent answers per @all question, in turn', unit: 'answers' },
      floor: { ...summarize(atOnce.map((r) => r.answers)), label: 'answers per @all question, all at once (reference)', unit: 'answers' },
      ratio: null,
      met: inTurn.every((r) => r.answers === 1 && r.overlaps === 0),
      notes: [
        `in turn: answers ${inTurn.map((r) => r.answers).join(', ')}; turns ${inTurn.map((r) => r.turns).join(', ')}; overlapping turn pairs ${overlaps.join(', ')}`,
        `in turn: round duration (question → last turn ended) median ${summarize(inTurn.map((r) => r.ms)).median.toFixed(0)} ms (${inTurn.map((r) => r.ms.toFixed(0)).join(', ')} ms)`,
        `all at once: answers ${atOnce.map((r) => r.answers).join(', ')}; overlapping turn pairs ${atOnce.map((r) => r.overlaps).join(', ')}; round ${summarize(atOnce.map((r) => r.ms)).median.toFixed(0)} ms median`,
      ],
    };
  },
};

async function measure(mode: 'in_turn' | 'all_at_once', log: (line: string) => void): Promise<Round[]> {
  const root = tempDir();
  const home = join(root, 'home');
  const folder = join(root, 'work');
  mkdirSync(folder, { recursive: true });
  const model = await startFakeModel('claude_code', home);
  // The app skips the checkout's node_modules/.bin: the pinned CLIs come from a folder of links (as in the tests).
  const env = { ...process.env, ...model.env, PATH: `${pinnedCliBin()}:${process.env.PATH ?? ''}` };
  let host: AppHost | null = null;
  try {
    host = await startAppHost({ dataDir: join(root, 'data'), env, home, secrets: createMemorySecretStore() });
    const app = host.app;
    const call = personApi(app, env);
    const room = `bench-all-${mode.replace(/_/g, '-')}`;
    await app.core.store.write((tx) => ensureRoom(tx, { roomId: room, kind: 'named' }));
    await call('rooms.setReplyToAll', { roomId: room, mode });
    const agents: string[] = [];
    for (const name of NAMES) agents.push(String((await call('agents.add', { provider: 'claude_code', folder, roomId: room, name, permissions: 'read_only', turnsPerHour: null })).agentId));
    const rounds: Round[] = [];
    for (let q = 1; q <= QUESTIONS; q++) {
      const answer = `I can take flaky test ${q}.`;
      for (const name of NAMES) model.script.push(name, answerUnlessAnswered(answer));
      const before = await Promise.all(agents.map((id) => turnsOf(call, id)));
      const asked = performance.now();
      const sent = await call('messages.send', { roomId: room, text: `@all who can look at flaky test ${q}?` });
      const turns = await roundEnded(call, agents, before.map((t) => t.length));
      const ms = performance.now() - asked;
      const answers = await answersAfter(call, room, Number(sent.number));
      const round = { answers, turns: turns.length, overlaps: overlappingTurns(turns), ms };
      log(`B20 ${mode} question ${q}: ${answers} answers, ${turns.length} turns, ${round.overlaps} overlapping pairs, ${ms.toFixed(0)} ms`);
      rounds.push(round);
    }
    return rounds;
  } finally {
    await host?.close();
    await model.close();
  }
}

async function turnsOf(call: PersonCall, agentId: string): Promise<Array<TimedTurn & { status: string }>> {
  return (await call('agents.activity', { agentId, limit: 50 })).turns as Array<TimedTurn & { status: string }>;
}

/** Waits until every agent has had one more turn than `before` and it ended; the round's turns. */
async function roundEnded(call: PersonCall, agents: readonly string[], before: readonly number[]): Promise<TimedTurn[]> {
  const deadline = performance.now() + ROUND_LIMIT_MS;
  for (;;) {
    const now = await Promise.all(agents.map((id) => turnsOf(call, id)));
    const fresh = now.map((turns, i) => turns.filter((t) => t.number > before[i]));
    if (fresh.every((t) => t.length > 0 && t.every((turn) => turn.status !== 'running'))) return fresh.flat();
    if (performance.now() > deadline) throw new Error(`the round did not end within ${ROUND_LIMIT_MS / 60_000} minutes`);
    await sleep(25);
  }
}

async function answersAfter(call: PersonCall, roomId: string, number: number): Promise<number> {
  const { messages } = (await call('messages.timeline', { roomId, after: number })) as { messages: Array<{ number: number; source: string; kind?: string }> };
  return messages.filter((m) => m.number > number && m.source === 'agent').length;
}

