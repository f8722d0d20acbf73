// The error catalogue of mcp-tools.md §2.6: every expected failure is a DomainError
// carrying the spec's code, its exact phrase and whether MCP reports it soft or hard.

import { StorageError } from '../store/storageErrors';

export type ErrorKind = 'soft' | 'hard';

export class DomainError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly hint?: string;
  readonly extra?: Record<string, unknown>;
  constructor(code: string, kind: ErrorKind, phrase: string, hint?: string, extra?: Record<string, unknown>) {
    super(phrase);
    this.name = 'DomainError';
    this.code = code;
    this.kind = kind;
    this.hint = hint;
    this.extra = extra;
  }
}

/**
 * An expected failure to report by its code and phrase: the domain's own, or the store's
 * (StorageError: database busy, team offline, unknown place, …), which the domain reports
 * as its own.
 */
export function isDomainError(value: unknown): value is DomainError | StorageError {
  return value instanceof DomainError || value instanceof StorageError;
}

const hard = (code: string, phrase: string) => new DomainError(code, 'hard', phrase);
const soft = (code: string, phrase: string, hint?: string, extra?: Record<string, unknown>) =>
  new DomainError(code, 'soft', phrase, hint, extra);

/** Factories for every catalogued error; call them, then throw the result. */
export const errors = {
  W1: () => hard('W1', 'Choose worker_id or agent_session_id, not both.'),
  W2: () => hard('W2', 'Durable handles identify workers, not controllers.'),
  W3: () => hard('W3', "Pass room_id explicitly when registering or reconnecting this chat's worker."),
  W4: () => hard('W4', 'To recover a lost worker pass room_id and the display_name it registered under, and neither worker_id nor registration_key.'),
  W5: () => hard('W5', 'Use worker_id to resume or registration_key to create, not both.'),
  W6: () => hard('W6', 'A new chat must supply its own registration_key and retain the returned worker_id.'),
  W7: () => hard('W7', 'Unknown worker_id for this account and API. Create a worker for this chat or explicitly resume its saved handle.'),
  W8: (name: string) => hard('W8', `This MCP server holds no worker named "${name}" in this room, so there is nothing to recover. Register as a new worker with a registration_key.`),
  W9: (name: string) => hard('W9', `This MCP server holds more than one worker named "${name}" in this room and cannot tell which one this chat is. Resume it with its saved worker_id, or register as a new worker with a registration_key.`),
  W10: () => hard('W10', 'Another registration is in progress for this worker; retry explicitly.'),
  W11: () => hard('W11', 'Worker registration was superseded; retry explicitly.'),
  W12: () => hard('W12', 'This worker has no current connection in this process. Reconnect explicitly with register_agent_session(worker_id, room_id).'),
  W13: () => hard('W13', 'This worker connection was replaced. Reconnect explicitly with its worker_id.'),
  W14: () => hard('W14', 'This worker connection was replaced or disconnected. Reconnect explicitly with its worker_id.'),
  W15: () => hard('W15', 'This agent session has ended. Call register_agent_session again to go on working in this room. If the same error returns, register with a new registration_key, or have the LetAgents MCP server restarted and register once more.'),
  W16: () => hard('W16', 'Registered worker agent_session_id is required for this write action. Call register_agent_session for this room first, then pass the returned agent_session_id explicitly.'),
  W17: (id: string) => hard('W17', `Unknown agent_session_id: ${id}`),
  W18: (id: string, endedAt: string) => hard('W18', `agent_session_id ${id} ended at ${endedAt}`),
  W19: (id: string, sessionRoom: string, requestedRoom: string) =>
    hard('W19', `agent_session_id ${id} is registered for ${sessionRoom}, not ${requestedRoom}`),
  W20: () => hard('W20', 'Worker agent_session_id is required for this write action.'),
  W21: () => soft('W21', 'agent_session_id is required to disconnect a worker session.'),

  R1: () => soft('R1', 'No room_id provided and not currently in a room.', 'Pass room_id, or call join_room first.'),
  R2: () => hard('R2', 'No room is currently selected. Join a room first or pass room_id.'),
  R3: (near: readonly string[] = []) =>
    near.length > 0
      ? soft('R3', 'Room not found.', `Did you mean ${near.map((id) => `"${id}"`).join(' or ')}?`, { did_you_mean: near })
      : soft('R3', 'Room not found.'),
  R4: () => soft('R4', 'This room is archived.'),
  R5: () => soft('R5', 'Invalid join code. Expected a code like ABCX-7291.'),
  R6: () => soft('R6', 'Room id must be 1–512 characters with no control characters.'),
  R7: () => soft('R7', 'No saved room session found.'),
  R8: (path: string) => soft('R8', '.letagents.json already exists', 'Use join_room with the configured room, or edit the file.', { path }),
  R9: () => soft('R9', 'Not inside a git repository'),
  R10: () => soft('R10', 'Cannot derive room name: no git remote found and no custom room name provided'),
  R11: () => soft('R11', 'No cwd provided and this connection has no working directory.'),
  R12: () => soft('R12', 'No room detected for this folder. Call join_room with a name, or add a .letagents.json naming the room (initialize_repo writes one).'),
  R13: (name: string) =>
    soft('R13', `"${name}" is not a repository room name. A repository room is github.com/<owner>/<repo> (or the repository's git remote URL), e.g. github.com/acme/app.`),

  R14: (name: string, near: readonly string[]) =>
    soft(
      'R14',
      `There is no room "${name}"; did you mean ${near.map((id) => `"${id}"`).join(' or ')}? Nothing was created.`,
      `Join "${near[0]}" to work there. To make a new room "${name}" after all, call join_room with that name again.`,
      { did_you_mean: near },
    ),

  M1: () => hard('M1', 'reply_to and thread_parent_id must match when both are provided.'),
  M2: () => hard('M2', 'reply_to must reference an existing local message in this room.'),
  M3: () => hard('M3', 'reply_to must belong to the requested local thread.'),
  M4: () => hard('M4', 'Message sender must not exceed 512 characters or 2048 UTF-8 bytes.'),
  M5: () => hard('M5', 'Message text is required.'),
  M6: () => hard('M6', 'Message text must not exceed 262144 UTF-8 bytes.'),
  M7: () => hard('M7', 'after_message_id must be a message id like msg_12.'),
  M8: () => hard('M8', 'query must contain at least one search term.'),
  M9: () => hard('M9', 'query must not have more than 16 terms.'),
  M10: () => soft('M10', 'summary is required'),

  T1: (from: string, to: string, allowed: readonly string[]) =>
    hard('T1', `Invalid transition: ${from} -> ${to}. Allowed: ${allowed.join(', ')}`),
  T2: () => hard('T2', 'Task title is required.'),
  T3: () => soft('T3', 'Task not found.'),
  T4: () => hard('T4', 'Use claim_task or handoff_task_lease to change task ownership.'),
  T5: () => hard('T5', 'Use handoff_task_lease to assign work to another worker.'),
  T6: () => hard('T6', 'A worker holding the task cannot also claim review authority.'),
  T7: () => hard('T7', 'Review authority is already held by another local reviewer.'),
  T8: () => hard('T8', 'Review lease id did not match the active local review authority.'),
  T9: () => hard('T9', 'Only the worker holding this task can change it.'),
  T10: () => hard('T10', 'Task is already held by another worker. Ask its holder to hand it off.'),
  T11: () => hard('T11', 'A task must be accepted by someone other than the worker that proposed it.'),
  T12: () => hard('T12', 'This worker may not change this task.'),
  T13: () => hard('T13', 'Work lease id did not match the active work lease.'),
  T14: () => hard('T14', 'This worker does not hold review authority for this task.'),
  T15: (key: string) => hard('T15', `No live worker with agent key ${key} in this room.`),
  T16: () => hard('T16', 'That agent has several sessions in this room; pass target_agent_session_id.'),
  T17: () => hard('T17', "The task's reviewer cannot also take its work lease."),
  T18: () => hard('T18', 'An artifact needs at least one of url, id, number or ref.'),

  D1: () => soft('D1', 'Message not found.'),
  D2: (name: string) => soft('D2', `No agent named ${name} in this room.`),
  D3: (used: number, budget: number) =>
    soft(
      'D3',
      `This room's daily token budget is reached: about ${used} of ${budget} tokens today. Reads return nothing more today.`,
      'Post only what you must (send_message still works) and stop; a person can raise the budget in LetAgents.',
    ),

  K1: () => soft('K1', 'client_id was already used for a different entry.'),
  O1: () => soft('O1', 'GitHub sign-in is not configured: set a GitHub OAuth client id.'),
  O2: () => soft('O2', 'No pending device authorization. Run start_device_auth first.'),
  O3: (message: string) => soft('O3', 'keychain_unavailable', undefined, { message }),
  O4: (detail: string) => soft('O4', `GitHub could not be reached: ${detail}`),
} as const;

/** Errors of the app API that have no MCP phrase (person-only actions, bad input). */
export const appErrors = {
  invalidInput: (message: string) => new DomainError('invalid_input', 'hard', message),
  /** What this host cannot do (the phone listener in a host without it). */
  notAvailable: (message: string) => new DomainError('not_available', 'hard', message),
  notFound: (what: string) => new DomainError('not_found', 'hard', `${what} not found.`),
  nameTaken: () => new DomainError('name_taken', 'hard', 'Another agent in this room already uses that name.'),
  /** Removing a managed agent would throw away work on its branch; the caller confirms (discardWork). */
  unmergedWork: (message: string) => new DomainError('unmerged_work', 'hard', message),
  /** In a team's room every person sees a request; the first answer wins (team-rooms.md §4). */
  alreadyAnswered: (id: string, by: string) =>
    new DomainError('already_answered', 'hard', `${id} was already answered by ${by || 'someone else'}; your answer was not posted.`),
} as const;
