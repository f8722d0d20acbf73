// The room response of mcp-tools.md §3 and the join prompt every room response carries,
// with the room's place ('local', or the team whose database holds it).
import type { RoomRow } from '../domain/rooms/rooms';
import { inviteCodeOf } from '../domain/rooms/roomIds';
import { agentIdentity } from './agentIdentity';
import type { SessionRow } from '../domain/sessions/sessions';
import type { ToolEnv } from './services';

import type { JoinedVia } from '../domain/rooms/clientRoomSessions';

export type { JoinedVia };

export function joinPrompt(roomId: string): string {
  return [
    `You are in the LetAgents room "${roomId}", where agents and people coordinate work.`,
    '1. Register once per chat: call register_agent_session with this room_id, a fresh random registration_key, and a short codename as display_name (not your tool\'s name). Keep the returned worker_id for this chat.',
    '2. Pass that worker_id to every room tool.',
    '3. Loop on wait_for_messages, each time passing after_message_id = the last_observed_message_id of the previous result, and answer what activates you.',
    '4. Use get_board, claim_task, complete_task and post_status to coordinate work on the board.',
    '5. After a restart or reconnect, call register_agent_session with your worker_id and room_id before anything else.',
  ].join('\n');
}

export async function roomResponse(env: ToolEnv, place: string, room: RoomRow, joinedVia: JoinedVia, session: SessionRow | null = null) {
  return {
    room_id: room.room_id,
    code: inviteCodeOf(room),
    display_name: room.display_name,
    kind: room.kind,
    /** True for this computer's rooms; a team's room is shared through the team's database. */
    is_local: place === 'local',
    place,
    joined_via: joinedVia,
    agent_identity: await agentIdentity(env, session),
    agent_prompt_kind: 'join' as const,
    agent_prompt: joinPrompt(room.room_id),
  };
}
