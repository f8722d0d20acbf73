// Tasks as the board, its cards and the task drawer show them.
import { z } from 'zod';
import { TASK_STATUSES } from '../taskTransitions';
import { Person, Place, RoomId, RoomNumber, Timestamp } from './common';

export const TaskStatusSchema = z.enum(TASK_STATUSES);

export const PullRequestState = z.object({
  url: z.string().nullable(),
  state: z.enum(['open', 'draft', 'merged', 'closed', 'unknown']),
  checks: z.enum(['passing', 'failing', 'pending']).nullable(),
});

export const TaskCard = z.object({
  /** "task_<N>": agents use it, so it shows small and copyable. */
  id: z.string(),
  number: RoomNumber,
  roomId: RoomId,
  /** The room's place: 'local' or a team's name. */
  place: Place,
  title: z.string(),
  status: TaskStatusSchema,
  /** Holder of the work lease. */
  assignee: Person.nullable(),
  /** Holder of the review lease. */
  reviewer: Person.nullable(),
  pr: PullRequestState.nullable(),
  createdBy: Person,
  /** True when an agent proposed it (the person approves with Accept). */
  proposedByAgent: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const TaskHistoryEntry = z.object({
  from: TaskStatusSchema.nullable(),
  to: TaskStatusSchema,
  actor: z.string(),
  at: Timestamp,
});

export const ARTIFACT_PROVIDERS = ['github', 'gitlab', 'bitbucket', 'unknown'] as const;
export const ARTIFACT_KINDS = ['issue', 'branch', 'pull_request', 'merge_request', 'review', 'check_run', 'merge'] as const;

/** A workflow artifact (data-model.md §4.6); the main process checks it strictly (workflowArtifacts.ts). */
export const WorkflowArtifact = z.object({
  provider: z.enum(ARTIFACT_PROVIDERS),
  kind: z.enum(ARTIFACT_KINDS),
  id: z.string().nullable().optional(),
  number: z.number().int().nullable().optional(),
  title: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  ref: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
});

export const TaskDetail = TaskCard.extend({
  description: z.string().nullable(),
  history: z.array(TaskHistoryEntry),
  artifacts: z.array(WorkflowArtifact),
  /** The message the task came from. */
  sourceMessageNumber: RoomNumber.nullable(),
  /** Root of the thread where the task is discussed (its creation event), if any. */
  discussionRootNumber: RoomNumber.nullable(),
});

export const Board = z.object({
  roomId: RoomId,
  tasks: z.array(TaskCard),
  /** For GitHub repo rooms: the repository's last known visibility; null for other rooms. */
  repoVisibility: z.enum(['public', 'private', 'internal', 'unknown']).nullable().optional(),
});

export type TaskCard = z.infer<typeof TaskCard>;
export type TaskDetail = z.infer<typeof TaskDetail>;
export type TaskHistoryEntry = z.infer<typeof TaskHistoryEntry>;
export type WorkflowArtifact = z.infer<typeof WorkflowArtifact>;
export type PullRequestState = z.infer<typeof PullRequestState>;
export type Board = z.infer<typeof Board>;
