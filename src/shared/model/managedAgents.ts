// Managed agents: provider CLIs (Claude Code, Codex, …: the app's list, agents.providers) that the app
// starts in a folder and hands a bounded turn whenever something in their room needs them.
import { z } from 'zod';
import { RoomId, Timestamp } from './common';

/** An agent CLI's id (claude_code): which there are is the app's to say (agents.providers); it refuses others. */
const ProviderId = z.string().trim().min(1, 'Choose the agent CLI.').max(64);

/**
 * What the agent may do outside LetAgents' own tools: read the folder only, also edit
 * files in it, ask the person for each use ("Ask me", Claude Code only), or whatever the
 * person's own provider settings allow.
 */
export const AgentPermissions = z.enum(['read_only', 'edit', 'ask', 'provider_default']);

/**
 * idle: no process; queued: a turn waits for a free slot; held: its budget is used up;
 * cant_run: its CLI failed for a reason the person must fix (not signed in, missing or
 * broken, a quota or rate limit, an unknown model) and it takes no turns until Resume.
 */
export const ManagedAgentState = z.enum(['idle', 'queued', 'running', 'paused', 'held', 'cant_run']);

export const TurnStatus = z.enum(['running', 'done', 'failed', 'stopped', 'timed_out']);
export const TriggerKind = z.enum(['message', 'task', 'run_now']);

export const MAX_INSTRUCTIONS_CHARS = 20_000;
export const MAX_TURNS_PER_HOUR = 1_000;
export const MAX_DAILY_TOKEN_CAP = 1_000_000_000;

/** Names a person types: trimmed, 1–64 characters (the agent's name in its room). */
const AgentName = z.string().trim().min(1, 'Give the agent a name.').max(64, 'A name must be at most 64 characters.');

export const AddAgentInput = z.strictObject({
  provider: ProviderId,
  /** The working folder: an absolute path to an existing folder. */
  folder: z.string().trim().min(1, 'Choose the folder the agent works in.').max(4096),
  roomId: RoomId,
  name: AgentName,
  /** Role or standing instructions, given in every turn's prompt. */
  instructions: z.string().max(MAX_INSTRUCTIONS_CHARS, `Instructions must be at most ${MAX_INSTRUCTIONS_CHARS} characters.`).optional(),
  /** The provider's model name; omitted: the provider's default. */
  model: z.string().trim().max(200).regex(/^[A-Za-z0-9._:/@\[\]-]*$/, 'A model name has only letters, digits and . _ : / @ - [ ].')
    // It goes to the provider's command line: a leading "-" would read as an option of its own.
    .refine((m) => !m.startsWith('-'), 'A model name cannot start with "-".').optional(),
  permissions: AgentPermissions,
  /** Most turns started in any hour; null: no limit. */
  turnsPerHour: z.number().int().min(1, 'Turns per hour must be at least 1.').max(MAX_TURNS_PER_HOUR).nullable().optional(),
  /** Most tokens (as the provider reports them) per day (UTC); null: no cap. */
  dailyTokenCap: z.number().int().min(1_000, 'A daily token cap must be at least 1,000.').max(MAX_DAILY_TOKEN_CAP).nullable().optional(),
  /** Work in the folder itself instead of a worktree of its own (when it may edit a git repository). */
  workInFolder: z.boolean().optional(),
});

/**
 * Where the agent works: its own git worktree on its own branch (letagents/<name>, started
 * from `base`), or the folder itself (`note` says why).
 */
export const AgentWorkspace = z.object({
  kind: z.enum(['worktree', 'folder']),
  /** The folder its turns run in. */
  path: z.string(),
  /** The repository the worktree belongs to (the person's checkout); null in the folder itself. */
  repo: z.string().nullable(),
  branch: z.string().nullable(),
  base: z.string().nullable(),
  note: z.string().nullable(),
});

export const ChangedFile = z.object({ path: z.string(), added: z.number().int(), removed: z.number().int(), binary: z.boolean() });

/** What an agent changed on its branch against its base: committed and uncommitted. */
export const AgentChanges = z.object({
  branch: z.string(),
  base: z.string(),
  /** Its worktree's folder. */
  path: z.string(),
  files: z.array(ChangedFile),
  added: z.number().int(),
  removed: z.number().int(),
  /** Commits on its branch since it left the base. */
  commits: z.number().int(),
  uncommittedFiles: z.number().int(),
  /** The unified diff; null when not asked for. */
  diff: z.string().nullable(),
  /** The diff was too long and is cut. */
  diffCut: z.boolean(),
  /** Changed .gitattributes files: they decide how git shows, filters and merges files, in the person's repository too once merged. */
  attributeFiles: z.array(z.string()),
  /** With the diff: files .gitattributes would show as binary whose content is text; the diff shows their text. */
  shownAsText: z.array(z.string()),
});

export const MergeResult = z.object({
  merged: z.boolean(),
  /** Files changed on both sides (a refused merge). */
  conflicts: z.array(z.string()),
  /** Why it was refused, in plain words; null when merged. */
  reason: z.string().nullable(),
  commit: z.string().nullable(),
});

/** "Update from main" after a refused merge (issue 35): the base merged into the agent's branch, or why not. */
export const UpdateResult = z.object({
  updated: z.boolean(),
  /** Files changed on both sides (a refused update). */
  conflicts: z.array(z.string()),
  /** Why it was refused, in plain words; null when updated. */
  reason: z.string().nullable(),
  /** The merge commit on its branch; null when it had everything already (or was refused). */
  commit: z.string().nullable(),
});

/** "Ask <agent> to redo it on top of main": whether it was asked (the conflicts left in its worktree), and what the room was told. */
export const RedoRequest = z.object({
  asked: z.boolean(),
  conflicts: z.array(z.string()),
  /** What happened, in plain words (the refusal, or that it merges cleanly now and was updated). */
  message: z.string(),
});

export const TurnSummary = z.object({
  number: z.number().int(),
  status: TurnStatus,
  startedAt: Timestamp,
  endedAt: Timestamp.nullable(),
});

export const ManagedAgent = z.object({
  agentId: z.string(),
  /** Its name in the room now (a person may rename it there). */
  name: z.string(),
  provider: ProviderId,
  providerName: z.string(),
  folder: z.string(),
  roomId: RoomId,
  roomName: z.string(),
  /** Its agent session in the room (the roster entry). */
  sessionId: z.string(),
  /** Its public agent key (a task it holds names it); null when its worker is gone. */
  agentKey: z.string().nullable(),
  instructions: z.string(),
  model: z.string().nullable(),
  permissions: AgentPermissions,
  turnsPerHour: z.number().int().nullable(),
  dailyTokenCap: z.number().int().nullable(),
  /** What the person asked for; survives a restart. */
  desiredState: z.enum(['running', 'paused']),
  state: ManagedAgentState,
  /** Why a held agent takes no turns, in plain words. */
  heldReason: z.string().nullable(),
  /** Why its CLI cannot run ("Claude Code is not signed in") and the fix (a command with the CLI's full path); null: it can. */
  cantRun: z.object({ reason: z.string(), fix: z.string() }).nullable(),
  /** Messages that activated it while it took no turns (paused, held, unable to run): its next turn gets them. */
  waitingMessages: z.number().int(),
  usage: z.object({
    turnsLastHour: z.number().int(),
    tokensToday: z.number().int(),
    /** Null when the provider reports no cost (Codex). */
    costTodayUsd: z.number().nullable(),
  }),
  lastTurn: TurnSummary.nullable(),
  workspace: AgentWorkspace,
  createdAt: Timestamp,
});

export const ActivityEntryKind = z.enum(['trigger', 'tool_call', 'tool_result', 'text', 'error', 'note']);

export const ActivityEntry = z.object({
  seq: z.number().int(),
  kind: ActivityEntryKind,
  text: z.string(),
  createdAt: Timestamp,
});

export const TurnView = z.object({
  number: z.number().int(),
  trigger: TriggerKind,
  /** What started it, in plain words ("Ada mentioned Juniper: …"). */
  triggerText: z.string(),
  status: TurnStatus,
  startedAt: Timestamp,
  endedAt: Timestamp.nullable(),
  durationMs: z.number().int().nullable(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number().nullable(),
  error: z.string().nullable(),
  entries: z.array(ActivityEntry),
});

export const AgentActivity = z.object({ agentId: z.string(), turns: z.array(TurnView) });

export const ProviderInfo = z.object({
  id: ProviderId,
  name: z.string(),
  /** Found on this machine (on PATH). */
  installed: z.boolean(),
  /** How to install it when it is missing. */
  installHint: z.string(),
  /** The CLI the app runs (full path, found on the app's PATH); null when not found. */
  path: z.string().nullable().default(null),
  /** What the app found wrong before any turn (not signed in), naming the CLI and whose PATH; null: nothing. */
  warning: z.string().nullable().default(null),
  /** What a person may let it do, in the order Add agent offers them. */
  permissions: z.array(AgentPermissions),
  /** Why a choice is missing for it, said where the person chooses; null: nothing to say. */
  permissionsNote: z.string().nullable().default(null),
});

export type AgentPermissions = z.infer<typeof AgentPermissions>;
export type ManagedAgentState = z.infer<typeof ManagedAgentState>;
export type TurnStatus = z.infer<typeof TurnStatus>;
export type TriggerKind = z.infer<typeof TriggerKind>;
export type AddAgentInput = z.infer<typeof AddAgentInput>;
export type ManagedAgent = z.infer<typeof ManagedAgent>;
export type ActivityEntryKind = z.infer<typeof ActivityEntryKind>;
export type ActivityEntry = z.infer<typeof ActivityEntry>;
export type TurnView = z.infer<typeof TurnView>;
export type AgentActivity = z.infer<typeof AgentActivity>;
export type ProviderInfo = z.infer<typeof ProviderInfo>;
export type AgentWorkspace = z.infer<typeof AgentWorkspace>;
export type ChangedFile = z.infer<typeof ChangedFile>;
export type AgentChanges = z.infer<typeof AgentChanges>;
export type MergeResult = z.infer<typeof MergeResult>;
export type UpdateResult = z.infer<typeof UpdateResult>;
export type RedoRequest = z.infer<typeof RedoRequest>;
