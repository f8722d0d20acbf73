// How a mention will reach an agent session next (issue 26), for the roster and `doctor`:
// its reachability (delivery/reachabilityOf.ts) says whether it waits, is managed, elsewhere
// or gone; for one that is connected here but not waiting, the way its client takes pushes
// decides (a Claude Code channel, a Codex queue, or nothing until its next tool call).
import type { Reachability, WakePath } from '../../shared/model/workers';
import type { Pushes } from '../delivery/pushes';
import type { SessionPush } from './sessionPush';

export function wakePathOf(reachability: Reachability, sessionKey: string, push: Pick<SessionPush, 'sinkFor'>, pushes: Pick<Pushes, 'actedOnPush'>): WakePath {
  switch (reachability) {
    case 'listening':
      return 'wait';
    case 'managed':
      return 'managed_turn';
    case 'elsewhere':
      return 'elsewhere';
    case 'offline':
    case 'managed_paused':
      return 'none';
    case 'working':
    case 'idle': {
      const sink = push.sinkFor(sessionKey);
      if (!sink) return 'next_call';
      if (sink.via === 'channel') return pushes.actedOnPush(sessionKey) ? 'push' : 'push_unconfirmed';
      const { codexThread, codexQueue } = sink.connection;
      if (!codexThread) return 'codex_unknown_thread';
      return codexQueue === 'no_daemon' || codexQueue === 'not_installed' || codexQueue === 'failed' ? 'codex_no_daemon' : 'codex_queue';
    }
  }
}
