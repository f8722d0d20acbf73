// Automations (issue 36): an instruction for an agent that starts on a schedule or an event in
// a room, runs one at a time, and stops at its limits. Its target is one managed agent, or a
// mention posted in the room so any agent a mention reaches takes part.
import { z } from 'zod';
import { TaskStatusSchema } from './tasks';
import { AgentPermissions } from './managedAgents';
import { Place, RoomId, RoomNumber, Timestamp } from './common';

export const MAX_AUTOMATION_INSTRUCTIONS = 20_000;
export const MAX_RUN_TURNS = 20;
export const DEFAULT_RUN_TURNS = 3;
export const MAX_RUN_TOKENS = 100_000_000;
/** Every N minutes: at least 1, at most a week. */
export const MAX_INTERVAL_MINUTES = 7 * 24 * 60;

/** "HH:MM", 24-hour clock. */
const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time is HH:MM on the 24-hour clock, e.g. 09:00.');

/** When a scheduled automation runs; a calendar schedule reads its times in `timeZone`. */
export const Schedule = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('interval'), minutes: z.number().int().min(1, 'Run at most once a minute.').max(MAX_INTERVAL_MINUTES, 'Run at least once a week.') }),
  z.strictObject({ kind: z.literal('daily'), time: ClockTime }),
  z.strictObject({ kind: z.literal('weekdays'), time: ClockTime }),
  /** Five fields: minute hour day-of-month month day-of-week. */
  z.strictObject({ kind: z.literal('cron'), expression: z.string().trim().min(1, 'Write a cron expression, e.g. "0 9 * * 1-5".').max(200) }),
]);

/** After the app was closed or the computer asleep at a scheduled time: one run on return, or none. */
export const CatchUp = z.enum(['once', 'skip']);

/** What starts it: a schedule, something that happens in its room, or on a pull request linked to one of its tasks. */
export const AutomationTrigger = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('schedule'), schedule: Schedule, timeZone: z.string().trim().min(1).max(64), catchUp: CatchUp.default('once') }),
  /** A task of the room enters this status (e.g. in_review). */
  z.strictObject({ type: z.literal('task_status'), status: TaskStatusSchema }),
  z.strictObject({ type: z.literal('task_blocked') }),
  /** A question or decision in Needs you is answered. */
  z.strictObject({ type: z.literal('decision_answered') }),
  /** A check of a pull request linked to a task of the room fails (from the PR state the app fetches). */
  z.strictObject({ type: z.literal('pr_check_failed') }),
  /** Someone asks for a review on a pull request linked to a task of the room. */
  z.strictObject({ type: z.literal('pr_review_requested') }),
]);

/** Who does the work: one managed agent, or a mention posted in the room ("@Reviewer", "@agents"). */
export const AutomationTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('agent'), agentId: z.string().min(1).max(200) }),
  z.strictObject({
    kind: z.literal('mention'),
    handle: z.string().trim().regex(/^@?[A-Za-z0-9_.:/-]{1,64}$/, 'A mention is a name a mention reaches: letters, digits and _ . : / - (e.g. Reviewer, agents).'),
  }),
]);

/** A run's limits: one run at a time always; these on top. */
export const RunLimits = z.strictObject({
  /** Turns one run may take (its first, and its retries after a rate limit or a usage limit). */
  maxTurns: z.number().int().min(1).max(MAX_RUN_TURNS).default(DEFAULT_RUN_TURNS),
  /** Tokens one run may use, as the CLI reports them; null: no cap. The turn that crosses it finishes. */
  maxTokens: z.number().int().min(1_000, 'A run token cap must be at least 1,000.').max(MAX_RUN_TOKENS).nullable().default(null),
  /** What the agent may do in these runs: at most what the agent itself may; null: the agent's own. */
  permissions: AgentPermissions.nullable().default(null),
  /** Each run in a fresh worktree on a branch of its own (an agent that may edit a git repository). */
  freshWorktree: z.boolean().default(false),
});

const Name = z.string().trim().min(1, 'Give the automation a name.').max(80, 'A name must be at most 80 characters.');
const Instructions = z
  .string()
  .refine((text) => text.trim() !== '', 'Write what the agent should do.')
  .refine((text) => text.length <= MAX_AUTOMATION_INSTRUCTIONS, `Instructions must be at most ${MAX_AUTOMATION_INSTRUCTIONS} characters.`);

export const AutomationInput = z.strictObject({
  name: Name,
  roomId: RoomId,
  place: Place.optional(),
  target: AutomationTarget,
  instructions: Instructions,
  trigger: AutomationTrigger,
  limits: RunLimits.optional(),
});

export const AutomationEdit = z.strictObject({
  automationId: z.string().min(1).max(200),
  name: Name.optional(),
  target: AutomationTarget.optional(),
  instructions: Instructions.optional(),
  trigger: AutomationTrigger.optional(),
  limits: RunLimits.optional(),
});

/** How a run started. */
export const RunCause = z.enum(['schedule', 'catch_up', 'event', 'run_now']);
/** running: its turn is queued or taking place; skipped: it could not start (reason); missed: scheduled times that passed while the app was closed or asleep. */
export const RunStatus = z.enum(['running', 'done', 'failed', 'stopped', 'skipped', 'missed']);

export const AutomationRun = z.object({
  number: z.number().int(),
  cause: RunCause,
  /** What started it, in plain words ("Scheduled for 09:00", "task_7 entered In review"). */
  causeText: z.string(),
  status: RunStatus,
  /** Why it was skipped, failed or stopped; for missed runs, "Missed 3 runs (last at …)". */
  reason: z.string().nullable(),
  /** Missed runs this record stands for (status missed). */
  missed: z.number().int(),
  /** The scheduled time it stands for (schedules). */
  dueAt: Timestamp.nullable(),
  startedAt: Timestamp,
  endedAt: Timestamp.nullable(),
  /** The agent's turns it took (their numbers in the agent's activity). */
  turns: z.array(z.number().int()),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number().nullable(),
  /** The message that answers it: the agent's last message of the run, or the mention posted. */
  reply: z.object({ roomId: RoomId, place: Place, number: RoomNumber }).nullable(),
  /** The branch of its fresh worktree, when it left changes there. */
  branch: z.string().nullable(),
});

export const AutomationState = z.enum(['active', 'paused']);

export const Automation = z.object({
  automationId: z.string(),
  name: z.string(),
  place: Place,
  roomId: RoomId,
  roomName: z.string(),
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('agent'), agentId: z.string(), name: z.string(), permissions: AgentPermissions.nullable() }),
    z.object({ kind: z.literal('mention'), handle: z.string() }),
  ]),
  instructions: z.string(),
  trigger: AutomationTrigger,
  /** The trigger in plain words ("Every weekday at 09:00 (Europe/Berlin)"). */
  triggerText: z.string(),
  limits: RunLimits,
  state: AutomationState,
  /** Its next scheduled run (schedules that are not paused); null otherwise. */
  nextRunAt: Timestamp.nullable(),
  /** Scheduled runs missed most recently, until the next run on time. */
  missed: z.object({ count: z.number().int(), lastAt: Timestamp }).nullable(),
  lastRun: AutomationRun.nullable(),
  /** A run is going now (one at a time). */
  running: z.boolean(),
  /** Why it does nothing now although it is active (GitHub not signed in, its agent removed); null otherwise. */
  notice: z.string().nullable(),
  createdAt: Timestamp,
});

export type Schedule = z.infer<typeof Schedule>;
export type CatchUp = z.infer<typeof CatchUp>;
export type AutomationTrigger = z.infer<typeof AutomationTrigger>;
export type AutomationTarget = z.infer<typeof AutomationTarget>;
export type RunLimits = z.infer<typeof RunLimits>;
export type AutomationInput = z.infer<typeof AutomationInput>;
export type AutomationEdit = z.infer<typeof AutomationEdit>;
export type RunCause = z.infer<typeof RunCause>;
export type RunStatus = z.infer<typeof RunStatus>;
export type AutomationRun = z.infer<typeof AutomationRun>;
export type AutomationState = z.infer<typeof AutomationState>;
export type Automation = z.infer<typeof Automation>;
