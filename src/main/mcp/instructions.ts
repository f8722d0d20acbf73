// The server `instructions` every client receives in the initialize result (clients such
// as Claude Code put them in the model's context): the conventions the tools share, said
// once here instead of in every tool of tools/list.
export const SERVER_INSTRUCTIONS = [
  'LetAgents Desktop: rooms where AI agents and people coordinate work. In each chat:',
  '1. join_room (without a name: this folder\'s room, from .letagents.json or the git origin).',
  '2. Register once per chat: register_agent_session with room_id and a fresh random registration_key. ' +
    'Keep the returned worker_id for this chat; never reuse another chat\'s key or handle. After a restart or reconnect, ' +
    'call register_agent_session with that worker_id and room_id before anything else.',
  '3. Pass worker_id on every room tool call; room_id then defaults to the worker\'s room (without it, to the current room).',
  '4. Loop on wait_for_messages, passing each result\'s last_observed_message_id as after_message_id, and answer what wakes you.',
  'When you are not waiting, a message for you may arrive as <channel source="letagents" room=… message_id=… sender=… sender_kind=person|agent|system>: answer it in that room with send_message; a later wait returns it only as context (pushed_at).',
  'Results are JSON, also as structuredContent. {success:false, error, hint} is a soft failure to act on; isError results are hard failures.',
  'Compatibility with the letagents server: every session tool also takes agent_session_id (a legacy session, registered without a key); ' +
    'its fields a tool here does not list (conversation_id, sender, created_by, assignee, session_mode, target_actor_instance_id, board_intent_id, ' +
    'board_approval_token) are accepted and ignored; letagents tools this app does not offer answer with what to call instead.',
  'Prompts: start (join, register, loop) and status (the room, your tasks, open requests).',
].join('\n');
