// Messages as the timeline, the thread panel and search show them.
import { z } from 'zod';
import { Person, Place, RoomId, RoomNumber, Timestamp } from './common';

export const MessageSource = z.enum(['agent', 'human', 'system']);
export const MessageKind = z.enum(['message', 'status', 'event']);

export const QuotedMessage = z.object({
  number: RoomNumber,
  senderName: z.string(),
  /** At most 1 000 characters of the quoted text. */
  excerpt: z.string(),
});

/**
 * Whom a person's message wakes (issue 34): the composer's "→ Cedar" / "→ everyone (2 agents)" /
 * "→ nobody" while typing, and the receipts after sending, from the one rule the server applies
 * (src/main/domain/activation/untagged.ts). `thread`: a reply or thread message, routed to the
 * thread's agents as before.
 */
export const WakePreview = z.object({
  to: z.enum(['everyone', 'agents', 'nobody', 'thread']),
  names: z.array(z.string()),
  count: z.number().int().min(0),
  /** 'in_turn': a person's @all answered one agent at a time (`names`, `count`: the agents taking turns). */
  why: z.enum(['small_room', 'partner', 'follow_up', 'nobody', 'broadcast', 'in_turn', 'mention']).optional(),
  /** With 'in_turn': the agents the message also names, woken at once and outside the turns. */
  atOnce: z.array(z.string()).optional(),
});

export const TimelineMessage = z.object({
  /** "msg_<N>". */
  id: z.string(),
  number: RoomNumber,
  roomId: RoomId,
  kind: MessageKind,
  source: MessageSource,
  sender: Person,
  text: z.string(),
  createdAt: Timestamp,
  /** A top-level quote-reply names the message it quotes. */
  replyTo: QuotedMessage.nullable(),
  /** Set exactly when this message is a thread reply. */
  threadRootNumber: RoomNumber.nullable(),
  replyCount: z.number().int().min(0),
  lastReplyAt: Timestamp.nullable(),
  /** True when the text mentions the person (their name, or @all). */
  mentionsYou: z.boolean(),
  /** The person's own message: on this computer every person's message, in a team room only the ones under their team name. */
  fromYou: z.boolean(),
  /** The stored text was larger than anyone can send (a hostile row): only its first 64 KiB are here. */
  textTruncated: z.literal(true).optional(),
  /** A person's message that named nobody: whom it woke, as decided when it was posted. */
  wakes: WakePreview.optional(),
});

export const TimelinePage = z.object({
  /** Top-level messages (no thread replies), oldest first. */
  messages: z.array(TimelineMessage),
  hasMoreBefore: z.boolean(),
  hasMoreAfter: z.boolean(),
});

export const ThreadView = z.object({
  root: TimelineMessage,
  /** Replies oldest first. */
  replies: z.array(TimelineMessage),
});

export const SnippetPart = z.object({ text: z.string(), hit: z.boolean() });

export const SearchHit = z.object({
  number: RoomNumber,
  threadRootNumber: RoomNumber.nullable(),
  sender: Person,
  createdAt: Timestamp,
  /** About 24 tokens around the best hit, split into plain and highlighted parts. */
  snippet: z.array(SnippetPart),
});

export const SearchResult = z.object({ hits: z.array(SearchHit), hasMore: z.boolean() });

/** Search across every room (Ctrl+K): the hits grouped by room, rooms in the sidebar's order. */
export const SearchAllResult = z.object({
  groups: z.array(z.object({ roomId: RoomId, place: Place, hits: z.array(SearchHit), hasMore: z.boolean() })),
});

export type MessageSource = z.infer<typeof MessageSource>;
export type MessageKind = z.infer<typeof MessageKind>;
export type TimelineMessage = z.infer<typeof TimelineMessage>;
export type WakePreview = z.infer<typeof WakePreview>;
export type TimelinePage = z.infer<typeof TimelinePage>;
export type ThreadView = z.infer<typeof ThreadView>;
export type SnippetPart = z.infer<typeof SnippetPart>;
export type SearchHit = z.infer<typeof SearchHit>;
export type SearchResult = z.infer<typeof SearchResult>;
export type SearchAllResult = z.infer<typeof SearchAllResult>;
