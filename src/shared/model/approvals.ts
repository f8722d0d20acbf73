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
  /** The command, path or description, as the agent gave it. */
  summary: z.string(),
  /** The tool's input, cut short. */
  inputPreview: z.string(),
  /** What the person can answer (a channel request has no "for this turn"). */
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

export type ApprovalDecision = z.infer<typeof ApprovalDecision>;
export type ApprovalInfo = z.infer<typeof ApprovalInfo>;
export type ApprovalOutcome = z.infer<typeof ApprovalOutcome>;
