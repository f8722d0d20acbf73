// The app API contract: every method the UI may call (`domain.verb`) with zod input and
// output. The dispatcher (src/main/api/dispatcher.ts) validates against it; both bridges
// (IPC and WebSocket) carry exactly these calls. Events are in events.ts.
import { z } from 'zod';
import type { MethodName } from './bridge';
import { messageTooLong } from './messageSize';
import { Empty, Place, RoomId, RoomNumber } from './model/common';
import { MarkReadResult, ReplyToAll, RoomExport, RoomSummary } from './model/rooms';
import { SearchAllResult, SearchResult, ThreadView, TimelineMessage, TimelinePage, WakePreview } from './model/messages';
import { Board, TaskCard, TaskDetail, TaskStatusSchema } from './model/tasks';
import { AgentSession, Wake } from './model/workers';
import { AlertAction, ReceiptsResult, RoomDelivery } from './model/delivery';
import { NeedsYouList, NeedsYouRef } from './model/needsYou';
import { APPROVAL_NOTE_MAX, ApprovalDecision, ApprovalOutcome } from './model/approvals';
import { Fact, FactBody, FactCategory, FactTitle } from './model/knowledge';
import { AuthStatus, DeviceFlow, PollResult } from './model/account';
import { ConfigSnippet, FirstPrompt, SetupChange, SetupStatus, ToolId } from './model/setup';
import { AppInfo, DoctorReport, Opened, Settings, SettingsPatch } from './model/app';
import { AddAgentInput, AgentActivity, AgentChanges, AgentWorkspace, ManagedAgent, MergeResult, ProviderInfo, RedoRequest, UpdateResult } from './model/managedAgents';
import { Automation, AutomationEdit, AutomationInput, AutomationRun } from './model/automations';
import { TeamAdded, TeamAddInput, TeamName, TeamRemoved, TeamsList, TeamSummary, TeamTest } from './model/teams';
import { PairingOffer, PhoneCertificateChoice, PhoneSetupPatch, PhoneStatus } from './model/phone';
import { NotifySettings, NotifySettingsPatch, NotifyTargetInput, NotifyTestResult, RoomNotifyInput } from './model/notifications';

const method = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) => ({ input, output, summary });

// A room (and what is in it) is named by its id and its place; `place` omitted: 'local'.
const room = { roomId: RoomId, place: Place.optional() };
const numbered = { ...room, number: RoomNumber };
const session = { sessionId: z.string().min(1).max(200), place: Place.optional() };
const RoomName = z.string().trim().min(1, 'Room name is required.').max(64, 'Room name must be at most 64 characters.');
/** A custom issue the dispatcher shows as it is, without the field's name before it. */
export const PLAIN_ISSUE = { plain: true } as const;
const MessageText = z
  .string()
  .refine((text) => text.trim() !== '', 'Message text is required.')
  .superRefine((text, ctx) => {
    const tooLong = messageTooLong(text);
    if (tooLong) ctx.addIssue({ code: 'custom', message: tooLong, params: PLAIN_ISSUE });
  });
const PageLimit = z.number().int().min(1).max(500).optional();
const SearchQuery = z.string().trim().min(1, 'query must contain at least one search term.').max(500);
const Removed = z.object({ removed: z.boolean() });
const managed = { agentId: z.string().min(1).max(200) };
const automation = { automationId: z.string().min(1).max(200) };

export const contract = {
  'rooms.list': method(
    z.strictObject({ includeArchived: z.boolean().optional() }),
    z.array(RoomSummary),
    "Rooms of every place (this computer, then each team), pinned first, then by latest activity; an offline team's rooms as last seen.",
  ),
  'rooms.create': method(
    z.strictObject({ name: RoomName, place: Place.optional() }),
    RoomSummary,
    "Creates a named room (or opens the one of that name) in a place: 'local' or a team; omitted: the default place.",
  ),
  'rooms.rename': method(z.strictObject({ ...room, name: RoomName }), RoomSummary, 'Changes the display name; the id never changes.'),
  'rooms.archive': method(z.strictObject({ ...room, archived: z.boolean() }), RoomSummary, 'Archives (read-only) or unarchives a room.'),
  'rooms.pin': method(z.strictObject({ ...room, pinned: z.boolean() }), RoomSummary, 'Pins a room to the top of the sidebar.'),
  'rooms.setReplyToAll': method(
    z.strictObject({ ...room, mode: ReplyToAll }),
    RoomSummary,
    "How a person's @all is answered: 'in_turn' (one agent at a time, the default) or 'all_at_once'.",
  ),
  'rooms.markRead': method(z.strictObject({ ...room, number: RoomNumber }), MarkReadResult, 'Marks messages up to `number` read (never moves backwards).'),
  'rooms.export': method(z.strictObject({ ...room, format: z.enum(['markdown', 'json']) }), RoomExport, 'The whole room as a file the UI offers for download.'),
  'rooms.delete': method(z.strictObject(room), Removed, 'Deletes a room and all of its data.'),

  'messages.timeline': method(
    z.strictObject({ ...room, before: RoomNumber.optional(), after: z.number().int().min(0).optional(), around: RoomNumber.optional(), limit: PageLimit }),
    TimelinePage,
    'Top-level messages oldest first: the newest page, a page before/after a number, or one around a number.',
  ),
  'messages.thread': method(z.strictObject({ ...room, rootNumber: RoomNumber }), ThreadView, 'A thread root and its replies.'),
  'messages.send': method(
    z.strictObject({ ...room, text: MessageText, threadRootNumber: RoomNumber.optional(), replyToNumber: RoomNumber.optional() }),
    TimelineMessage,
    'Posts as the person (source "human").',
  ),
  'messages.preview': method(
    z.strictObject({ ...room, text: z.string().max(200_000), threadRootNumber: RoomNumber.optional(), replyToNumber: RoomNumber.optional() }),
    WakePreview,
    "Whom the draft would wake if sent now (the composer's \"→ …\"), by the rule the send applies.",
  ),
  'messages.search': method(
    z.strictObject({ ...room, query: SearchQuery, limit: z.number().int().min(1).max(100).optional() }),
    SearchResult,
    'Full-text search in one room, newest first.',
  ),
  'messages.searchAll': method(
    z.strictObject({ query: SearchQuery, perRoom: z.number().int().min(1).max(50).optional() }),
    SearchAllResult,
    'Full-text search in every room: the newest hits of each room that has any, rooms in the sidebar\'s order.',
  ),

  'tasks.board': method(z.strictObject(room), Board, 'Every task of the room, for the board.'),
  'tasks.get': method(z.strictObject(numbered), TaskDetail, 'One task with description, history and artifacts.'),
  'tasks.create': method(
    z.strictObject({
      ...room,
      title: z.string().trim().min(1, 'Task title is required.').max(500),
      description: z.string().max(20_000).optional(),
      propose: z.boolean().optional(),
      assignTo: z.string().min(1).max(300).optional(),
    }),
    TaskCard,
    "A person's task starts accepted unless `propose` is set; `assignTo` (an agent key of the room) assigns it at once, in the same write.",
  ),
  'tasks.move': method(z.strictObject({ ...numbered, to: TaskStatusSchema }), TaskCard, 'Changes status along the transition table (T1 otherwise).'),
  'tasks.accept': method(z.strictObject(numbered), TaskCard, 'proposed → accepted.'),
  'tasks.cancel': method(z.strictObject(numbered), TaskCard, '→ cancelled.'),
  'tasks.handoff': method(z.strictObject({ ...numbered, toAgentKey: z.string().min(1).max(300) }), TaskCard, 'Assigns or reassigns the work to an agent in the room.'),
  'tasks.releaseWork': method(z.strictObject(numbered), TaskCard, 'Force-releases the work lease; the task returns to accepted.'),
  'tasks.releaseReview': method(z.strictObject(numbered), TaskCard, 'Force-releases the review lease.'),

  'workers.list': method(z.strictObject({ roomId: RoomId.optional(), place: Place.optional() }), z.array(AgentSession), 'Agent sessions, online first; one room or all (of every place).'),
  'workers.rename': method(z.strictObject({ ...session, name: z.string().trim().min(1, 'Name is required.').max(64, 'Name must be at most 64 characters.') }), AgentSession, "Renames an agent in its room; old messages keep their sender."),
  'workers.disconnect': method(z.strictObject(session), AgentSession, 'Ends its connection; it can reconnect.'),
  'workers.remove': method(z.strictObject(session), AgentSession, 'Removes it from the room; its tasks there return to accepted.'),
  'workers.wakes': method(z.strictObject(session), z.array(Wake), 'Why the agent was woken, newest first (the last 20 since the app started).'),

  'agents.providers': method(Empty, z.array(ProviderInfo), 'The agent CLIs the app can run, and whether each is installed.'),
  'agents.list': method(Empty, z.array(ManagedAgent), 'Managed agents: their settings, state, budget use and last turn.'),
  'agents.add': method(AddAgentInput, ManagedAgent, 'Adds a managed agent: registers it in its room and runs it when something needs it.'),
  'agents.pause': method(z.strictObject(managed), ManagedAgent, 'No new turns until resumed; a running turn finishes.'),
  'agents.resume': method(z.strictObject(managed), ManagedAgent, 'Takes turns again (a held agent gets a fresh budget window).'),
  'agents.stop': method(z.strictObject(managed), ManagedAgent, 'Ends the running turn now and drops the queued one; the room is told.'),
  'agents.runNow': method(z.strictObject(managed), ManagedAgent, 'Starts a turn now (or right after the running one).'),
  'agents.remove': method(
    z.strictObject({ ...managed, discardWork: z.boolean().optional() }),
    Removed,
    'Stops it, removes it from its room and forgets its settings and activity; its worktree goes too, refused while it holds unmerged work unless discardWork.',
  ),
  'agents.changes': method(z.strictObject({ ...managed, diff: z.boolean().optional() }), AgentChanges, 'What it changed on its branch against its base, committed and uncommitted (diff: the unified diff too).'),
  'agents.merge': method(z.strictObject(managed), MergeResult, 'Merges its branch into its base, as the person; refused with the conflicting files named, nothing changed but its uncommitted work committed on its branch.'),
  'agents.update': method(z.strictObject(managed), UpdateResult, 'Merges its base into its branch in its worktree (Update from main); refused with the conflicting files named, nothing forced.'),
  'agents.askToRedo': method(
    z.strictObject(managed),
    RedoRequest,
    'Starts merging its base into its branch, leaves the conflicts in its worktree, and asks it in its room to redo its change on top of the base.',
  ),
  'agents.openFolder': method(z.strictObject(managed), Opened, 'Opens the folder it works in (its worktree) in the file manager (false where the host cannot).'),
  'agents.discard': method(z.strictObject(managed), AgentWorkspace, 'Throws its worktree and branch away; its next turn starts again from the base.'),
  'agents.activity': method(z.strictObject({ ...managed, limit: z.number().int().min(1).max(50).optional() }), AgentActivity, 'Its latest turns, newest first, with what happened in each.'),

  'automations.list': method(Empty, z.array(Automation), 'Automations of this computer: trigger, next run, last run, and whether one runs now.'),
  'automations.add': method(AutomationInput, Automation, 'Adds an automation: an instruction for an agent that starts on a schedule or an event in its room.'),
  'automations.edit': method(AutomationEdit, Automation, 'Changes what is given; a new trigger counts from now.'),
  'automations.pause': method(z.strictObject(automation), Automation, 'No new runs until resumed (a run going on finishes); times passed while paused are not missed.'),
  'automations.resume': method(z.strictObject(automation), Automation, 'Runs again from its next scheduled time or event.'),
  'automations.runNow': method(z.strictObject(automation), Automation, 'A run now (recorded as not started when one is still going or its agent takes no turns).'),
  'automations.remove': method(z.strictObject(automation), Removed, 'Deletes it and its runs; a run going on ends.'),
  'automations.runs': method(z.strictObject({ ...automation, limit: z.number().int().min(1).max(100).optional() }), z.array(AutomationRun), 'Its newest runs, newest first: missed, skipped and started, with outcome, tokens and the reply.'),

  'needsYou.list': method(Empty, NeedsYouList, 'One queue across the rooms of every place, newest first.'),
  'needsYou.answer': method(
    z.strictObject({ item: NeedsYouRef, text: MessageText }),
    TimelineMessage,
    'Posts the answer as a thread reply that wakes the agent; the first answer wins (already_answered names who answered).',
  ),
  'needsYou.dismiss': method(z.strictObject({ item: NeedsYouRef }), Removed, 'Takes the item off the queue.'),
  'needsYou.act': method(
    z.strictObject({ item: NeedsYouRef, action: AlertAction, toSessionId: z.string().min(1).max(200).optional() }),
    Removed,
    'Acts on an item the app raised: remind the agent, hand the work to another, resume or stop a loop, resume a managed agent.',
  ),

  'approvals.decide': method(
    z.strictObject({ number: z.number().int().min(1), decision: ApprovalDecision, note: z.string().max(APPROVAL_NOTE_MAX).optional() }),
    ApprovalOutcome,
    'Answers a tool use an agent asked about: allow once, allow for this turn, or deny (the note goes to the agent); the first answer wins.',
  ),

  'delivery.receipts': method(
    z.strictObject({ ...room, numbers: z.array(RoomNumber).min(1).max(200) }),
    ReceiptsResult,
    'Who each message routes to, who got it (when) and who it is still waiting for.',
  ),
  'delivery.room': method(z.strictObject(room), RoomDelivery, "The room's token meter and budget, and the loop guard's pause."),
  'delivery.setRoomBudget': method(
    z.strictObject({ ...room, dailyTokens: z.number().int().min(1_000).max(1_000_000_000).nullable() }),
    RoomDelivery,
    "Sets the room's daily token budget (null: none); past it, agents' reads get a soft \"budget reached\".",
  ),

  'memory.list': method(z.strictObject({ ...room, includeRetired: z.boolean().optional() }), z.array(Fact), "The room's facts, newest first."),
  'memory.add': method(z.strictObject({ ...room, category: FactCategory, title: FactTitle, body: FactBody, sourceUrl: z.string().max(2048).optional() }), Fact, 'Adds a fact as the person.'),
  'memory.edit': method(z.strictObject({ ...numbered, category: FactCategory.optional(), title: FactTitle.optional(), body: FactBody.optional() }), Fact, 'Edits a fact.'),
  'memory.retire': method(z.strictObject(numbered), Fact, 'Retires a fact: agents no longer see it.'),

  'auth.status': method(Empty, AuthStatus, 'Signed in as whom; keychain and client id state; a pending sign-in.'),
  'auth.startDeviceFlow': method(z.strictObject({ force: z.boolean().optional() }), DeviceFlow, 'Asks GitHub for a one-time code (O1, O3, O4).'),
  'auth.poll': method(Empty, PollResult, 'Polls the pending sign-in once.'),
  'auth.cancel': method(Empty, Removed, 'Forgets the pending sign-in.'),
  'auth.signOut': method(Empty, Removed, 'Deletes the token from the keychain and the cached account.'),

  'setup.status': method(Empty, SetupStatus, 'A card per agent tool.'),
  'setup.install': method(
    z.strictObject({ tool: ToolId, allowTools: z.boolean().optional() }),
    SetupChange,
    "Writes the MCP entry (no secret), backing up the old file; allowTools: also Claude Code's allow rule for LetAgents' tools (the person agreed).",
  ),
  'setup.uninstall': method(z.strictObject({ tool: ToolId }), SetupChange, 'Removes our MCP entry only (and our allow rule).'),
  'setup.snippet': method(z.strictObject({ tool: ToolId }), ConfigSnippet, 'The exact snippet for manual setup.'),
  'setup.firstPrompt': method(z.strictObject({ roomId: RoomId.optional(), place: Place.optional() }), FirstPrompt, 'What to paste into an agent to get it started.'),

  'settings.get': method(Empty, Settings, 'Current settings.'),
  'settings.set': method(SettingsPatch, Settings, 'Changes some settings; returns all of them.'),

  'teams.list': method(Empty, TeamsList, 'Every team with its redacted URL, patterns and connection state, and the default place.'),
  'teams.add': method(TeamAddInput, TeamAdded, 'Tests the connection, sets the database up, keeps the URL in the keychain.'),
  'teams.test': method(z.strictObject({ name: TeamName }), TeamTest, 'Reachable, schema version, latency, TLS (read-only).'),
  'teams.remove': method(z.strictObject({ name: TeamName }), TeamRemoved, 'Forgets the team here; its rooms stay in its database.'),
  'teams.setPatterns': method(z.strictObject({ name: TeamName, patterns: z.array(z.string().max(300)).max(50) }), TeamSummary, 'Repo patterns whose rooms go to the team.'),
  'teams.setDefault': method(z.strictObject({ place: z.string().trim().min(1).max(40) }), TeamsList, "Where new rooms go by default: 'local' or a team."),

  'phone.status': method(Empty, PhoneStatus, 'The phone listener (on or off, where it listens, its certificate) and the paired phones.'),
  'phone.setup': method(PhoneSetupPatch, PhoneStatus, 'Turns the phone listener on or off and chooses its addresses, port and external origin; turning it off closes it and every phone socket.'),
  'phone.certificate': method(PhoneCertificateChoice, PhoneStatus, "Serves the person's own certificate (PEM files, copied into the data folder) or the app's own again."),
  'phone.pair': method(z.strictObject({ address: z.string().trim().max(64).optional() }), PairingOffer, 'A one-time pairing code (2 minutes, single use) with its link and QR code; the listener must be on.'),
  'phone.revoke': method(z.strictObject({ deviceId: z.string().min(1).max(100) }), PhoneStatus, 'Unpairs a phone: its key opens nothing any more and its open pages are closed at once.'),

  'notifications.get': method(Empty, NotifySettings, 'Where notifications go (URL redacted), which kinds, message text or not, room levels and snoozes.'),
  'notifications.set': method(NotifySettingsPatch, NotifySettings, 'Which kinds notify, whether the message text goes along, and a snooze of everything.'),
  'notifications.setTarget': method(NotifyTargetInput, NotifySettings, 'An ntfy topic URL or a webhook (kept in the keychain), or none.'),
  'notifications.setRoom': method(RoomNotifyInput, NotifySettings, "A room's level (all, mentions, muted) or snooze."),
  'notifications.test': method(Empty, NotifyTestResult, 'Sends a test notification to the chosen target.'),

  'app.info': method(Empty, AppInfo, 'Version, host and who the person posts as.'),
  'app.doctor': method(Empty, DoctorReport, 'The `doctor` checks.'),
  'app.openExternal': method(z.strictObject({ url: z.string().max(4096) }), Opened, 'Opens an https: link outside the app (false where the host cannot).'),
  'app.openDataFolder': method(Empty, Opened, 'Opens the data folder in the file manager (false where the host cannot).'),
} as const;

export type Contract = typeof contract;
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
export type ParsedInput<M extends MethodName> = z.output<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]['output']>;

// The contract and the bridge's name list must be the same set (the preload uses the list).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const contractMatchesBridge: Same<keyof Contract, MethodName> = true;
