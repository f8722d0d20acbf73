// The workflow-artifact schema of data-model.md §4.6, shared by tasks' workflow_artifacts
// and room artifacts. Strict: unknown keys are rejected. Stored and shown with every key.
import { z } from 'zod';
import { appErrors } from '../errors';

export const MAX_WORKFLOW_ARTIFACTS = 32;
/** How many artifacts (and refs) a board card shows. */
export const BOARD_ARTIFACT_COUNT = 4;

export const ARTIFACT_PROVIDERS = ['github', 'gitlab', 'bitbucket', 'unknown'] as const;
export const ARTIFACT_KINDS = ['issue', 'branch', 'pull_request', 'merge_request', 'review', 'check_run', 'merge'] as const;

export const workflowArtifactSchema = z.strictObject({
  provider: z.enum(ARTIFACT_PROVIDERS),
  kind: z.enum(ARTIFACT_KINDS),
  id: z.string().nullable().optional(),
  number: z.number().int().nullable().optional(),
  title: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  ref: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
});

export const workflowArtifactListSchema = z.array(workflowArtifactSchema).max(MAX_WORKFLOW_ARTIFACTS);

export type WorkflowArtifactInput = z.input<typeof workflowArtifactSchema>;

/** An artifact as stored and shown: every key present, absent ones null. */
export interface WorkflowArtifact {
  provider: (typeof ARTIFACT_PROVIDERS)[number];
  kind: (typeof ARTIFACT_KINDS)[number];
  id: string | null;
  number: number | null;
  title: string | null;
  url: string | null;
  ref: string | null;
  state: string | null;
}

function complete(a: z.output<typeof workflowArtifactSchema>): WorkflowArtifact {
  return {
    provider: a.provider, kind: a.kind, id: a.id ?? null, number: a.number ?? null,
    title: a.title ?? null, url: a.url ?? null, ref: a.ref ?? null, state: a.state ?? null,
  };
}

function describeIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.');
  return `Invalid ${path}: ${issue?.message ?? 'not a workflow artifact'}`;
}

/** Validates one artifact (unknown keys rejected); returns it with every key present. */
export function parseWorkflowArtifact(value: unknown, what = 'artifact'): WorkflowArtifact {
  const parsed = workflowArtifactSchema.safeParse(value);
  if (!parsed.success) throw appErrors.invalidInput(describeIssue(parsed.error, what));
  return complete(parsed.data);
}

/** Validates a replacement list for a task (at most 32). */
export function parseWorkflowArtifactList(value: unknown): WorkflowArtifact[] {
  const parsed = workflowArtifactListSchema.safeParse(value);
  if (!parsed.success) throw appErrors.invalidInput(describeIssue(parsed.error, 'workflow_artifacts'));
  return parsed.data.map(complete);
}

/** Reads one stored artifact (room artifacts store one per row). */
export function readStoredArtifact(json: string): WorkflowArtifact {
  return JSON.parse(json) as WorkflowArtifact;
}

/** Reads a stored list; anything unreadable counts as empty rather than breaking the board. */
export function readStoredArtifacts(json: string): WorkflowArtifact[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as WorkflowArtifact[]) : [];
  } catch {
    return [];
  }
}
