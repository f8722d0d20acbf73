// What register_agent_session says when the name a chat asked for is taken in the room
// (issue 18; worker-handles.md §3 step 3): the name asked for, that it is taken, and to use
// the given name in mentions; plus, for a new worker whose name this connection's own
// worker holds, how to recover that worker instead.

export interface NameTaken {
  requested_name: string;
  name_taken: true;
  name_notice: string;
}

/** The fields a registration result carries when `given` replaced the `requested` name; none when it did not. */
export function nameTaken(requested: string, given: string): NameTaken | Record<string, never> {
  if (requested === given) return {};
  return {
    requested_name: requested,
    name_taken: true,
    name_notice:
      `The name "${requested}" belongs to another agent in this room, so you joined it as "${given}". ` +
      `Others mention you as @${given}: use that name in mentions and when you sign messages, not "${requested}".`,
  };
}

/** Appended when this connection already holds a worker with the requested name. */
export const RECOVERY_HINT =
  'If this chat is that worker and lost its handle, call register_agent_session with room_id, display_name and ' +
  'recover_lost_worker: true instead.';
