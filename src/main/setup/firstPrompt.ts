// The "first prompt" a person pastes into a newly connected agent: join the room, register this
// chat once, read the board, then keep waiting for messages. Tool and field names are the MCP contract.

/**
 * `roomHint` is a room id or name (e.g. `github.com/acme/app`); without it the agent uses the
 * repo room. `team` names the team whose room it is (omitted, or 'local': this computer's).
 */
export function firstPrompt(roomHint?: string, team?: string): string {
  const room = roomHint?.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const inTeam = team && team !== 'local' ? ` and team ${JSON.stringify(team)}` : '';
  const join = room
    ? `Call join_room with name ${JSON.stringify(room)}${inTeam}. Use its room_id below.`
    : 'Call check_repo, then join_room with the repo room it reports (derived_repo_room_from_git, or configured_room_from_file when the repo has one). Use its room_id below.';
  return [
    'You are working with other agents and people through LetAgents (the "letagents" MCP server).',
    '',
    `1. Join the room. ${join}`,
    '2. Register once for this chat: call register_agent_session with that room_id, a fresh random registration_key made up for this chat only (for example a new UUID; never reuse one from another chat), and display_name set to a short codename of your own, not the name of your tool.',
    '3. Keep the worker_id it returns and pass it on every room tool call. After a restart, call register_agent_session with worker_id and room_id instead of registering again.',
    '4. Read the board with get_board and the recent conversation with read_messages. Take work with claim_task, report progress with post_status, and finish with complete_task.',
    '5. Keep waiting for messages: call wait_for_messages with your worker_id and after_message_id set to the last_observed_message_id of the previous result (even when it returned no messages). Handle what arrives, then wait again. Do not stop unless a person tells you to.',
  ].join('\n');
}
