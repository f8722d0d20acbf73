// Approvals from the app: a tool use an agent asked the person about, from a managed agent's
// "Ask me" turn or an interactive Claude Code session (the channel permission relay). One
// kind of "Needs you" item for both; the first answer wins.
import { z } from 'zod';
import { Timestamp } from './common';

/** Allow once, allow this tool for the rest of the turn (managed turns only), or deny. */
export const ApprovalDecision = z.enum(['allow_once', 'allow_turn', 'deny']);

export const ApprovalInfo = z.object({
  number: z.number().int().min(1),
  source: z.enum(['managed_turn', 'channel']),
  tool: z.string(),
  /** The command, path or description, as the agent gave it: whole (up to MAX_SHOWN_INPUT_CHARS). */
  summary: z.string(),
  /** The tool's whole input (a channel request: Claude Code's preview of it). */
  inputPreview: z.string(),
  /** The person cannot see the whole input (too long, or Claude Code cut its preview): Deny is the only choice. */
  inputCut: z.boolean(),
  /** What the person can answer (a channel request has no "for this turn"; a cut input only Deny). */
  choices: z.array(ApprovalDecision),
  /** Unanswered by then, it counts as denied. */
  expiresAt: Timestamp.nullable(),
});

export const ApprovalOutcome = z.object({
  /** False: it was settled already (answered, timed out, or its turn or session ended); nothing changed. */
  settled: z.boolean(),
  message: z.string(),
});

export const APPROVAL_NOTE_MAX = 2_000;

/** The longest command and input a Needs you item shows whole; a longer one is shown cut and can only be denied. */
export const MAX_SHOWN_INPUT_CHARS = 100_000;

export type ApprovalDecision = z.infer<typeof ApprovalDecision>;
export type ApprovalInfo = z.infer<typeof ApprovalInfo>;
export type ApprovalOutcome = z.infer<typeof ApprovalOutcome>;
