// Pushes (issue 26): messages the app pushed into an agent's open session (a Claude Code
// channel notification, a Codex queued message) because it was not inside
// wait_for_messages. A push is a delivery the agent has not yet confirmed: its receipt says
// "pushed to Juniper" until a read returns the message ("seen"), and a later wait does not
// wake the agent for it again. Kept in memory, like reachability: a push goes to a live
// connection, and a restart ends that connection anyway (the message then routes as new).
import type { PlacedRoom } from '../store/places';

/** Pushed messages kept per session at most (the oldest go first: by then they were read or are old news). */
const PER_SESSION = 500;

export interface Push {
  readonly place: string;
  readonly roomId: string;
  readonly sessionId: string;
  readonly numbers: readonly number[];
  readonly at: string;
  /** How it was pushed: a Claude Code channel notification or a Codex queued message. */
  readonly via: 'channel' | 'codex_queue';
}

export class Pushes {
  /** place, room and session -> message number -> when it was pushed. */
  private readonly bySession = new Map<string, Map<number, string>>();
  /** place and session -> when the last push went out (epoch ms). */
  private readonly lastPush = new Map<string, number>();
  /** Sessions (place keys) that called a tool after a push reached them: pushes to them work. */
  private readonly acted = new Set<string>();
  private readonly listeners = new Set<(push: Push) => void>();

  record(push: Push): void {
    if (push.numbers.length === 0) return;
    const key = roomSessionKey(push, push.sessionId);
    const list = this.bySession.get(key) ?? new Map<number, string>();
    for (const n of push.numbers) list.set(n, push.at);
    while (list.size > PER_SESSION) list.delete(list.keys().next().value!);
    this.bySession.set(key, list);
    this.lastPush.set(`${push.place}\n${push.sessionId}`, Date.now());
    for (const listener of [...this.listeners]) {
      try {
        listener(push);
      } catch (error) {
        console.error('push listener failed:', error);
      }
    }
  }

  /** When message `number` was pushed to the session, or null. */
  pushedAt(room: PlacedRoom, sessionId: string, number: number): string | null {
    return this.bySession.get(roomSessionKey(room, sessionId))?.get(number) ?? null;
  }

  /** When the session (its place key) was last pushed to, epoch ms, or null. */
  lastPushTo(sessionKey: string): number | null {
    return this.lastPush.get(sessionKey) ?? null;
  }

  /** The session called a tool: after a push, that shows pushes reach it. */
  called(sessionKey: string): void {
    if (this.lastPush.has(sessionKey)) this.acted.add(sessionKey);
  }

  /** True once the session acted on something pushed to it (since the app started). */
  actedOnPush(sessionKey: string): boolean {
    return this.acted.has(sessionKey);
  }

  onPushed(listener: (push: Push) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.listeners.clear();
  }
}

const roomSessionKey = (room: PlacedRoom, sessionId: string) => `${room.place}\n${room.roomId}\n${sessionId}`;
