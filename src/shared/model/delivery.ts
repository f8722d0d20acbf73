// Delivery you can see (issue 14): receipts under messages ("Seen by Atlas, Birch · pushed to
// Juniper · waiting for Cedar"), a room's token meter and budget, and the loop guard's pause.
import { z } from 'zod';
import { RoomId, RoomNumber, Timestamp } from './common';
import { Meter, Reachability } from './workers';

export const SeenBy = z.object({
  sessionId: z.string(),
  name: z.string(),
  at: Timestamp,
  /** False when the time is an upper bound ("by then"): older receipts are kept folded. */
  exact: z.boolean(),
});

/** Pushed into the agent's open session (issue 26), not yet returned by one of its reads. */
export const PushedTo = z.object({ sessionId: z.string(), name: z.string(), at: Timestamp });

export const WaitingFor = z.object({
  sessionId: z.string(),
  name: z.string(),
  reachability: Reachability,
  /** A paused managed agent of this computer: its id, so the receipt can offer Resume (issue 35); absent otherwise. */
  pausedAgentId: z.string().optional(),
});

/** A managed agent that read the message and answered nothing in the room, and why in words (issue 34): "read it and passed"; a reason the app does not know, "read it, but did not reply". */
export const NoReply = z.object({ name: z.string(), why: z.string() });

/** Where one agent is in a broadcast answered in turn (issue 34): done (and how), its turn now, or waiting. */
export const TurnStep = z.enum(['answered', 'passed', 'away', 'timed_out', 'turn', 'waiting']);
export const BroadcastTurn = z.object({ name: z.string(), state: TurnStep, startedAt: Timestamp.nullable(), endedAt: Timestamp.nullable() });
/** A person's @all answered one agent at a time: the order with each agent's state, and when the current turn ends at the latest (null once over). */
export const BroadcastTurns = z.object({ order: z.array(BroadcastTurn), turnEndsAt: Timestamp.nullable() });

/** One message's receipts: the agents it routes to that got it, those it was pushed to, those it has not reached yet, and those that read it and did not answer. */
export const MessageReceipts = z.object({ number: RoomNumber, seen: z.array(SeenBy), pushed: z.array(PushedTo), waiting: z.array(WaitingFor), noReply: z.array(NoReply).optional(), turns: BroadcastTurns.optional() });
export const ReceiptsResult = z.object({ receipts: z.array(MessageReceipts) });

/** The loop guard's pause in a room: these agents' messages to one another wake none of them. */
export const LoopPauseView = z.object({ agents: z.array(z.string()), fromNumber: RoomNumber, alertNumber: RoomNumber.nullable() });

export const RoomDelivery = z.object({
  roomId: RoomId,
  /** What LetAgents tools returned to the room's agents (tokens ≈ bytes ÷ 4). */
  meter: Meter,
  /** The room's daily token budget, or null for none. */
  budgetTokens: z.number().int().positive().nullable(),
  budgetReached: z.boolean(),
  loop: LoopPauseView.nullable(),
});

/** What a person can do to a "Needs you" item the app raised. */
export const AlertAction = z.enum(['remind', 'handoff', 'resume', 'stop', 'resume_agent']);

export const DeliveryLimits = z.object({
  /** A message not picked up (or a task untouched) this long becomes a "Needs you" item. */
  unansweredAfterSeconds: z.number().int().min(1).max(86_400),
  /** More agent messages than this within loopGuardMinutes, with no person involved, pause those agents. */
  loopGuardMessages: z.number().int().min(2).max(1_000),
  loopGuardMinutes: z.number().int().min(1).max(1_440),
});

export type SeenBy = z.infer<typeof SeenBy>;
export type WaitingFor = z.infer<typeof WaitingFor>;
export type PushedTo = z.infer<typeof PushedTo>;
export type MessageReceipts = z.infer<typeof MessageReceipts>;
export type BroadcastTurns = z.infer<typeof BroadcastTurns>;
export type TurnStep = z.infer<typeof TurnStep>;
export type RoomDelivery = z.infer<typeof RoomDelivery>;
export type AlertAction = z.infer<typeof AlertAction>;
export type DeliveryLimits = z.infer<typeof DeliveryLimits>;
