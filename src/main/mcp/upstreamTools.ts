// Tool names of the `letagents` MCP server (0.12.x) that this app does not offer
// (mcp-tools.md §1). Agents prompted for upstream may still call them; they get an
// answer naming what to call here instead of "Tool not found". They are answered by
// tools/call but not listed, so they cost nothing in every agent's context.
import { hardFailure, jsonResult } from './results';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const BOARD_MANAGER =
  'This app has no board manager or board intents: board actions need no approval here. ' +
  'Call the task tool itself (add_task, claim_task, update_task, complete_task, release_task_lease); ' +
  'board_intent_id and board_approval_token are accepted and ignored.';
const WAKE_RULES =
  'Wake rules need a room shared online; this room is stored on this device. ' +
  'Loop on wait_for_messages instead: it wakes you when a message concerns you.';

const HARD: Record<string, string> = {
  create_project: 'Projects are rooms in this app. Call create_room, or join_room with a name.',
  join_project: 'Projects are rooms in this app. Call join_room with the room name, or join_code with an invite code.',
  check_repo_visibility: 'Call check_repo for this folder\'s repository; get_board reports repo_visibility for GitHub repo rooms.',
  set_agent_name:
    'Names are chosen at registration: pass display_name to register_agent_session. A person can rename an agent in the app.',
  get_room_events: 'Room events are messages here: call read_messages (events have kind "event") or wait_for_messages.',
  submit_review_verdict:
    'Give your verdict in the task\'s thread with send_message, then move the task with update_task (the reviewer holds the review lease from claim_task_review).',
  add_wake_rule: WAKE_RULES,
  cancel_wake_rule: WAKE_RULES,
  ...Object.fromEntries(
    [
      'get_board_settings', 'set_board_manager_mode', 'assign_board_manager', 'release_board_manager', 'register_board_intent',
      'register_task_create_intent', 'register_task_claim_intent', 'register_task_close_intent', 'register_task_lease_action_intent',
      'list_board_intents', 'approve_board_intent', 'deny_board_intent',
    ].map((name) => [name, BOARD_MANAGER]),
  ),
};

/** The answer to an upstream tool this app does not offer, or null for any other name. */
export function upstreamAnswer(name: string): CallToolResult | null {
  // Upstream's own answer for a room stored on this device: nothing to wait for.
  if (name === 'list_wake_rules') return jsonResult({ note: WAKE_RULES, active: [], recent: [] });
  const text = Object.hasOwn(HARD, name) ? HARD[name] : undefined;
  return text === undefined ? null : hardFailure(`${name} is not available in LetAgents Desktop. ${text}`);
}

export const UPSTREAM_ONLY_TOOLS: readonly string[] = ['list_wake_rules', ...Object.keys(HARD)];
