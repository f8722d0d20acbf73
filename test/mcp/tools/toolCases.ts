// What each MCP tool gives the suites that cover every tool of the registry
// (src/main/mcp/tools/index.ts): its bad input with the exact errors (badInput.test.ts) and, for
// a tool outputs.test.ts's working session does not call, one good call (outputs.test.ts). Those
// suites name a tool that has no entry here and what to add (docs/development.md: add an MCP tool).
import { FORGED_WORKER_ID, MALFORMED_WORKER_ID, W7 } from './harness';
import { TEST_PLACE } from '../../support/place';

/** The room badInput.test.ts runs the cases in. */
export const BAD_INPUT_ROOM = 'bad-input-room';
export const HUGE = 'h'.repeat(262_145);
export const M2 = 'reply_to must reference an existing local message in this room.';
export const M6 = 'Message text must not exceed 262144 UTF-8 bytes.';
const R1 = 'No room_id provided and not currently in a room.';
const R2 = 'No room is currently selected. Join a room first or pass room_id.';
const R3 = 'Room not found.';
export const T3 = 'Task not found.';
/** `team` naming no team: the soft error names the places there are (this computer; in the team variant also "suite"). */
const NO_SUCH_PLACE = TEST_PLACE === 'local'
  ? '"no-such-team" is not a place: this app has no teams, so rooms go to "local" (this computer). Add a team with `letagents-desktop team add`.'
  : `"no-such-team" is not a place: use "local" (this computer) or one of the teams "${TEST_PLACE}".`;
/** The SDK's wording for a schema violation names the offending parameter. */
const schema = (param: string) => ({ hard: new RegExp(`Input validation error[\\s\\S]*${param}`) });

export type Expected = { hard: string | RegExp } | { soft: string };
/** [arguments, expected outcome, call from a connection without a worker]. */
export type Case = [Record<string, unknown>, Expected, 'no-worker'?];

const forged = (extra: Record<string, unknown> = {}): Case[] => [
  [{ ...extra, worker_id: FORGED_WORKER_ID }, { hard: W7 }],
  [{ ...extra, worker_id: MALFORMED_WORKER_ID }, { hard: W7 }],
  [{ ...extra, worker_id: 42 }, schema('worker_id')],
];
/** An unknown room (R3), and no room at all (R1; R2 for the posting tools), from a connection in no room. */
const unknownRoom = (extra: Record<string, unknown>, kind: 'soft' | 'hard' = 'soft'): Case[] => [
  [{ ...extra, room_id: 'no-such-room' }, kind === 'soft' ? { soft: R3 } : { hard: R3 }, 'no-worker'],
  [extra, kind === 'soft' ? { soft: R1 } : { hard: R2 }, 'no-worker'],
];
const task = (extra: Record<string, unknown> = {}): Case[] => [
  [{ task_id: 'task_999', ...extra }, { soft: T3 }],
  [{ task_id: 'task_01', ...extra }, { soft: T3 }],
  [{ task_id: 7, ...extra }, schema('task_id')],
  [{ ...extra }, schema('task_id')],
  ...forged({ task_id: 'task_1', ...extra }),
  ...unknownRoom({ task_id: 'task_1', ...extra }),
];

/**
 * Every tool's bad input, each case with the exact error it gets ([] for a tool that takes no
 * input). badInput.test.ts runs them as Ada's worker in BAD_INPUT_ROOM, where task_1 (her
 * proposed task) and msg_1 exist, and checks that each changed nothing.
 */
export const BAD_INPUT: Record<string, Case[]> = {
  join_code: [[{ code: 42 }, schema('code')], [{}, schema('code')], [{ code: 'msg_01' }, { soft: 'Invalid join code. Expected a code like ABCX-7291.' }]],
  create_room: [[{ team: 42 }, schema('team')], [{ team: 'no-such-team' }, { soft: NO_SUCH_PLACE }]],
  join_room: [[{ name: 42 }, schema('name')], [{ name: 'r', team: 42 }, schema('team')], [{ name: 'r', team: 'no-such-team' }, { soft: NO_SUCH_PLACE }], [{ name: 'r'.repeat(513) }, { soft: 'Room id must be 1–512 characters with no control characters.' }], [{ name: 'nul\u0000room' }, { soft: 'Room id must be 1–512 characters with no control characters.' }]],
  get_current_room: [],
  check_repo: [[{ cwd: 42 }, schema('cwd')]],
  resume_room_session: [[{ room_id: 42 }, schema('room_id')], [{ room_id: 'no-such-room' }, { soft: 'No saved room session found.' }], ...forged()],
  initialize_repo: [[{ room: 42 }, schema('room')], [{ cwd: ['/tmp'] }, schema('cwd')]],
  register_agent_session: [[{ room_id: 42 }, schema('room_id')], [{ room_id: BAD_INPUT_ROOM, registration_key: '' }, schema('registration_key')], [{ room_id: BAD_INPUT_ROOM, worker_id: FORGED_WORKER_ID }, { hard: W7 }], [{ room_id: BAD_INPUT_ROOM, session_kind: 'boss' }, schema('session_kind')]],
  disconnect_agent_session: [[{ agent_session_id: 42 }, schema('agent_session_id')], [{ agent_session_id: 'local_unknown' }, { hard: 'Unknown agent_session_id: local_unknown' }], ...forged()],
  send_message: [
    [{ text: HUGE }, { hard: M6 }], [{ text: 42 }, schema('text')], [{ text: 'x', reply_to: 'msg_99999' }, { hard: M2 }], [{ text: 'x', reply_to: 'msg_01' }, { hard: M2 }],
    [{ text: 'x', thread_parent_id: 'msg_99999' }, { hard: M2 }], ...forged({ text: 'x' }), ...unknownRoom({ text: 'x' }, 'hard'),
  ],
  send_thread_message: [[{ text: 'x' }, schema('thread_parent_id')], [{ text: 'x', thread_parent_id: 'msg_01' }, { hard: M2 }], [{ text: HUGE, thread_parent_id: 'msg_1' }, { hard: M6 }], ...forged({ text: 'x', thread_parent_id: 'msg_1' }), ...unknownRoom({ text: 'x', thread_parent_id: 'msg_1' }, 'hard')],
  read_messages: [[{ limit: -1 }, schema('limit')], [{ limit: 'all' }, schema('limit')], ...forged(), ...unknownRoom({})],
  wait_for_messages: [[{ after_message_id: 'msg_01' }, { hard: 'after_message_id must be a message id like msg_12.' }], [{ timeout: '5s' }, schema('timeout')], ...forged({ timeout: 1000 }), ...unknownRoom({ timeout: 1000 })],
  search_messages: [[{ query: '***' }, { hard: 'query must contain at least one search term.' }], [{ query: 42 }, schema('query')], [{ query: 'x', limit: 0 }, schema('limit')], ...forged({ query: 'x' }), ...unknownRoom({ query: 'x' })],
  get_message_status: [
    [{ message_id: 'msg_01' }, { soft: 'Message not found.' }], [{ message_id: 'msg_99999' }, { soft: 'Message not found.' }], [{}, schema('message_id')],
    [{ message_id: 'msg_1', agent: 'Nobody' }, { soft: 'No agent named Nobody in this room.' }], ...forged({ message_id: 'msg_1' }), ...unknownRoom({ message_id: 'msg_1' }),
  ],
  post_status: [[{ status: HUGE }, { hard: M6 }], [{ status: 42 }, schema('status')], ...forged({ status: 'working' }), ...unknownRoom({ status: 'working' }, 'hard')],
  post_reasoning: [[{ summary: '' }, { soft: 'summary is required' }], [{ summary: 's', confidence: 2 }, schema('confidence')], [{ summary: 's', milestone: 'm'.repeat(4_001) }, schema('milestone')], ...forged({ summary: 's' }), ...unknownRoom({ summary: 's' })],
  add_task: [[{ title: '' }, { hard: 'Task title is required.' }], [{ title: 'x', source_message_id: 'msg_99999' }, { hard: M2 }], [{ title: ['x'] }, schema('title')], ...forged({ title: 'x' }), ...unknownRoom({ title: 'x' })],
  get_board: [[{ status: 'open' }, schema('status')], [{ open_only: 'true' }, schema('open_only')], ...forged(), ...unknownRoom({})],
  claim_task: task(),
  update_task: [...task({ status: 'accepted' }), [{ task_id: 'task_1', workflow_artifacts: Array.from({ length: 33 }, (_, n) => ({ provider: 'github', kind: 'issue', number: n + 1 })) }, schema('workflow_artifacts')]],
  complete_task: [...task(), [{ task_id: 'task_1', pr_url: `https://x/${'p'.repeat(2_048)}` }, schema('pr_url')]],
  claim_task_review: [...task(), [{ task_id: 'task_1', reason: 'r'.repeat(2_001) }, schema('reason')]],
  release_task_review: [...task(), [{ task_id: 'task_1', lease_id: 42 }, schema('lease_id')]],
  release_task_lease: [...task(), [{ task_id: 'task_1' }, { hard: 'Only the worker holding this task can change it.' }]],
  handoff_task_lease: [...task({ target_agent_key: 'agent_x' }), [{ task_id: 'task_1', target_agent_key: '' }, schema('target_agent_key')], [{ task_id: 'task_1', target_agent_key: 'agent_x' }, { hard: 'Only the worker holding this task can change it.' }]],
  get_room_artifacts: [[{ task_id: 'task_999' }, { soft: T3 }], [{ limit: 0 }, schema('limit')], ...forged(), ...unknownRoom({})],
  publish_room_artifact: [
    [{ artifact: { provider: 'github', kind: 'issue' } }, { hard: 'An artifact needs at least one of url, id, number or ref.' }], [{ artifact: { provider: 'github', kind: 'issue', number: 1 }, task_id: 'task_999' }, { soft: T3 }],
    [{ artifact: 'pr' }, schema('artifact')], ...forged({ artifact: { provider: 'github', kind: 'issue', number: 1 } }), ...unknownRoom({ artifact: { provider: 'github', kind: 'issue', number: 1 } }),
  ],
  get_room_memory: [[{ room_id: 42 }, schema('room_id')], ...forged(), ...unknownRoom({})],
  remember_room_fact: (() => {
    const ok = { client_id: 'bad-input-fact', title: 't', body: 'b', category: 'goal' };
    return [[{ ...ok, client_id: 'short' }, schema('client_id')], [{ ...ok, source_message_id: 'msg_01' }, { hard: M2 }], [{ ...ok, category: 'wish' }, schema('category')], ...forged(ok), ...unknownRoom(ok)] as Case[];
  })(),
  request_human_input: (() => {
    const ok = { client_id: 'bad-input-ask', title: 't', body: 'b', category: 'question' };
    return [[{ ...ok, title: '' }, schema('title')], [{ ...ok, source_message_id: 'msg_99999' }, { hard: M2 }], [{ ...ok, category: 'goal' }, schema('category')], ...forged(ok), ...unknownRoom(ok)] as Case[];
  })(),
  get_human_requests: [[{ room_id: 42 }, schema('room_id')], ...forged(), ...unknownRoom({})],
  get_onboarding_status: [[{ cwd: 42 }, schema('cwd')]],
  start_device_auth: [[{ force: 'yes' }, schema('force')], ...forged()],
  poll_device_auth: [[{ auto_join: 'yes' }, schema('auto_join')], [{ request_id: 42 }, schema('request_id')], ...forged()],
  clear_saved_auth: [],
};

/** Who makes a good call, in outputs.test.ts's room: Ada's worker there. */
export interface Caller {
  readonly room_id: string;
  readonly worker_id: string;
}

/**
 * One good call of each tool that outputs.test.ts's working session does not call, and what its
 * result holds: the session checks the result against the tool's output schema (and that a
 * read-only tool changed nothing).
 */
export const GOOD_CALLS: Record<string, { args(caller: Caller): Record<string, unknown>; result: Record<string, unknown> }> = {};
