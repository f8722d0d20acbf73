// What a paused agent is told when it posts (issue 14): its message is stored and people see
// it, but it wakes none of the agents the loop guard paused with it. Stored rather than
// refused, so nothing is lost and the agent does not post it again.
import { listRoomSessions } from '../domain/sessions/sessions';
import type { PlacedRoom } from '../store/places';
import type { Queryable } from '../store/port';
import type { ToolEnv } from './services';

/** The poster's notice when the loop guard paused it; nothing (and no read) otherwise. */
export async function loopNotice(env: ToolEnv, q: Queryable, room: PlacedRoom, senderKey: string, number: number): Promise<{ loop_paused?: true; notice?: string }> {
  const pause = env.services.delivery.loopGuard.pauseOf(room, senderKey, number);
  if (!pause) return {};
  const names = (await listRoomSessions(q, room.roomId))
    .filter((s) => s.agent_key !== senderKey && pause.keys.has(s.agent_key) && s.session_kind === 'worker')
    .map((s) => s.display_name);
  const others = [...new Set(names)].join(', ') || 'the other agents';
  const minutes = Math.round(env.services.delivery.settings.limits.loopWindowMs / 60_000);
  return {
    loop_paused: true,
    notice:
      `Stored, but it wakes none of ${others}: the loop guard paused you and them after more than ` +
      `${env.services.delivery.settings.limits.loopMessages} agent messages within ${minutes} min with no person involved. ` +
      'Stop messaging them; a person will resume you or tell you what to do (keep calling wait_for_messages).',
  };
}
