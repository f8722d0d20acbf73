// Agents as the roster and the room header's presence chips show them: one entry per
// agent session (an agent in a room). The UI groups entries by agentKey for "rooms".
import { z } from 'zod';
import { TaskStatusSchema } from './tasks';
import { Place, RoomId, RoomNumber, Timestamp } from './common';

export const AgentStatus = z.enum(['idle', 'working', 'reviewing', 'blocked']);

/**
 * Whether a mention would reach the agent now (issue 14): inside wait_for_messages
 * (listening), called a tool in the last 2 minutes (working), connected but neither (idle),
 * not connected (offline); a managed agent the app starts when needed (managed), or one
 * paused or held by its budget (managed_paused); in a team room, connected through another
 * machine's app (elsewhere: whether it is waiting is known only there).
 */
export const Reachability = z.enum(['listening', 'working', 'idle', 'offline', 'managed', 'managed_paused', 'elsewhere']);
export type Reachability = z.infer<typeof Reachability>;

/** Each state's short label and what it means for a message, in plain words (hover text, the roster). */
export const REACHABILITY_WORDS: Readonly<Record<Reachability, { label: string; meaning: string }>> = {
  listening: { label: 'Listening', meaning: 'Waiting for messages now: a mention wakes it at once.' },
  working: { label: 'Working', meaning: 'Called a tool in the last 2 minutes and is not waiting: it sees news on its next call.' },
  idle: { label: 'Idle, not listening', meaning: 'Connected but not waiting: a mention will not reach it until someone prompts it.' },
  offline: { label: 'Offline', meaning: 'Not connected: it sees nothing until it connects again.' },
  managed: { label: 'Idle', meaning: 'A managed agent between turns: a mention starts a turn for it.' },
  managed_paused: { label: 'Paused', meaning: 'A managed agent that is paused, held by its budget or cannot run: no turn starts for it until you resume it.' },
  elsewhere: { label: 'On another machine', meaning: "Connected through another machine of the team: a mention reaches it there; whether it is waiting now is shown on that machine." },
};

/**
 * How a mention will reach the agent next, as far as the app can know (issue 26): its wait
 * (inside wait_for_messages), a push into its open Claude Code session (`push` once it acted
 * on one, `push_unconfirmed` before), a queued message to its Codex thread (`codex_queue`
 * once a queue resumed it; `codex_no_daemon` / `codex_unknown_thread` where it cannot), a
 * managed turn, another machine of the team, or nothing until its next tool call
 * (`next_call`) or connection (`none`).
 */
export const WakePath = z.enum(['wait', 'push', 'push_unconfirmed', 'codex_queue', 'codex_no_daemon', 'codex_unknown_thread', 'managed_turn', 'elsewhere', 'next_call', 'none']);
export type WakePath = z.infer<typeof WakePath>;

export const WAKE_PATH_WORDS: Readonly<Record<WakePath, string>> = {
  wait: 'Woken in its wait for messages.',
  push: 'Pushed into its open Claude Code session (it has acted on pushes).',
  push_unconfirmed: 'Pushed into its open Claude Code session; not acted on yet: start it with the channel flag if nothing happens.',
  codex_queue: 'Queued into its Codex session, which the Codex daemon resumes.',
  codex_no_daemon: 'Queued into its Codex session, but no Codex daemon resumes it: run `codex app-server daemon start`.',
  codex_unknown_thread: 'Not yet: its Codex session has not named its thread (it does on its first tool call).',
  managed_turn: 'The app starts a turn for it.',
  elsewhere: 'Reached through the machine it is connected to.',
  next_call: 'Only on its next tool call: nothing wakes it while it sits at its prompt.',
  none: 'Not reachable now: it is offline or paused.',
};

/** Wake paths that mean a mention will not wake the agent (doctor lists them). */
/** How Claude Code starts with our channel, so a mention reaches it at its prompt (Connect agents and doctor say it). */
export const CLAUDE_CHANNEL_COMMAND = 'claude --dangerously-load-development-channels server:letagents';

export const CANNOT_WAKE: ReadonlySet<WakePath> = new Set(['codex_no_daemon', 'codex_unknown_thread', 'next_call']);

/** The roster's order: who a message reaches soonest first. */
export const REACHABILITY_ORDER: readonly Reachability[] = ['listening', 'working', 'managed', 'elsewhere', 'idle', 'managed_paused', 'offline'];

/** Roster order: who a message reaches soonest first (ended sessions last), then the most recently seen, then by name. */
export function compareAgents(
  a: { ended: boolean; reachability: Reachability; lastSeenAt: string; name: string },
  b: { ended: boolean; reachability: Reachability; lastSeenAt: string; name: string },
): number {
  const rank = (x: typeof a) => (x.ended ? REACHABILITY_ORDER.length : REACHABILITY_ORDER.indexOf(x.reachability));
  return rank(a) - rank(b) || b.lastSeenAt.localeCompare(a.lastSeenAt) || a.name.localeCompare(b.name);
}

/** Bytes of tool results an agent (or a room) received, today (UTC) and in total; tokens ≈ bytes ÷ 4. */
export const Meter = z.object({ todayBytes: z.number().int().min(0), totalBytes: z.number().int().min(0) });
export type Meter = z.infer<typeof Meter>;

/** Why wait_for_messages woke the agent: the routing reason of mcp-tools.md §5.3. */
export const WakeReason = z.enum(['explicit_mention', 'broadcast', 'system_event', 'reply_target', 'thread_participant', 'task_owner', 'unaddressed', 'talking_with', 'follow_up']);
/** For a room event: the agent's part in it (a task it proposed, holds, reviews or was assigned; it was renamed or removed). */
export const WakeConcern = z.enum(['proposer', 'holder', 'reviewer', 'assignee', 'renamed', 'removed']);

/** One wake of an agent: a wait_for_messages result that activated it (kept in memory while the app runs). */
export const Wake = z.object({
  at: Timestamp,
  roomId: RoomId,
  /** The first message of the result that woke it. */
  messageNumber: RoomNumber,
  reason: WakeReason,
  concern: WakeConcern.nullable(),
  taskNumber: RoomNumber.nullable(),
  /** Who posted that message (a name); null for the app's own room events. */
  from: z.string().nullable(),
  /** The start of that message, on one line. */
  excerpt: z.string(),
  /** How many messages of that result woke it. */
  messages: z.number().int().min(1),
});

export const ApprovalWait = z.object({
  /** The owner's name in the team's rooms. */
  person: z.string(),
  tool: z.string(),
  since: Timestamp,
  /** "Juniper is waiting for ada to approve a command (Bash)". */
  text: z.string(),
});

/** What the team reads while a managed agent waits for its owner's approval: whose, and for which tool. */
export function approvalWaitText(agent: string, wait: { person: string; tool: string }): string {
  return `${agent} is waiting for ${wait.person} to approve ${wait.tool === 'Bash' ? 'a command (Bash)' : `a use of ${wait.tool}`}`;
}

export const AgentSession = z.object({
  sessionId: z.string(),
  agentKey: z.string(),
  roomId: RoomId,
  /** The room's place: 'local' or a team's name. */
  place: Place,
  /** In a team's room: the name of the machine whose app holds (or last held) the agent; null on this computer. */
  machine: z.string().nullable(),
  roomName: z.string(),
  name: z.string(),
  ide: z.string().nullable(),
  owner: z.string().nullable(),
  /** Connected now (bound to an open connection). */
  online: z.boolean(),
  /** Ended by a disconnect or removal; it can reconnect. */
  ended: z.boolean(),
  status: AgentStatus,
  statusText: z.string(),
  lastSeenAt: Timestamp,
  tasksHeld: z.array(z.object({ number: RoomNumber, title: z.string(), status: TaskStatusSchema })),
  /** Its latest wake since the app started; null when none. */
  lastWake: Wake.nullable(),
  /** Whether a mention would reach it now. */
  reachability: Reachability,
  /** How a mention reaches it next (issue 26). */
  wakePath: WakePath,
  /** What LetAgents tools returned to it in this room. */
  meter: Meter,
  /**
   * A managed agent of a team room that waits for its owner's approval, as every machine of the
   * team sees it (the tool, never the command): only the computer that runs it decides.
   */
  approvalWait: ApprovalWait.nullable().default(null),
});

export type AgentStatus = z.infer<typeof AgentStatus>;
export type WakeReason = z.infer<typeof WakeReason>;
export type Wake = z.infer<typeof Wake>;
export type AgentSession = z.infer<typeof AgentSession>;
