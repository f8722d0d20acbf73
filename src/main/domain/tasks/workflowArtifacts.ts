// The workflow-artifact schema of data-model.md §4.6, shared by tasks' workflow_artifacts
// and room artifacts. Strict: unknown keys are rejected, and a url must be https: (or http
// on this machine). Stored and shown with every key.
import { z } from 'zod';
import { ARTIFACT_URL_RULE, isArtifactUrl } from '../../../shared/externalLinks';
import { WorkflowArtifact as artifactShape } from '../../../shared/model/tasks';
import { appErrors } from '../errors';

export const MAX_WORKFLOW_ARTIFACTS = 32;
/** How many artifacts (and refs) a board card shows. */
export const BOARD_ARTIFACT_COUNT = 4;

/** The app's artifact shape, with unknown keys rejected rather than dropped, and only safe links (issue 15). */
export const workflowArtifactSchema = z.strictObject({
  ...artifactShape.shape,
  url: artifactShape.shape.url.refine((url) => url == null || isArtifactUrl(url), ARTIFACT_URL_RULE),
});

/** A task's pr_url: null clears it; otherwise the artifact link rule. */
export function checkPrUrl(prUrl: string | null): string | null {
  if (prUrl !== null && !isArtifactUrl(prUrl)) throw appErrors.invalidInput(`Invalid pr_url: ${ARTIFACT_URL_RULE}`);
  return prUrl;
}

export const workflowArtifactListSchema = z.array(workflowArtifactSchema).max(MAX_WORKFLOW_ARTIFACTS);

export type WorkflowArtifactInput = z.input<typeof workflowArtifactSchema>;

/** An artifact as stored and shown: every key present, absent ones null. */
export type WorkflowArtifact = Required<z.output<typeof workflowArtifactSchema>>;

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
