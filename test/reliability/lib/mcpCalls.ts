// Calling MCP tools the way the reliability tests need it: every call ends in exactly one
// outcome (a result, a soft or hard tool failure, or a request the transport lost), so a
// test can count them and insist that nothing unexpected happened.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** A tool result's JSON document; the tests read the fields they know. */
export type Doc = Record<string, unknown> & {
  success?: boolean;
  error?: string;
};

export type Outcome =
  | { readonly kind: 'ok'; readonly doc: Doc }
  | { readonly kind: 'soft'; readonly doc: Doc; readonly error: string }
  | { readonly kind: 'hard'; readonly text: string }
  /** The request itself failed: the app went away mid-call, or the transport closed. */
  | { readonly kind: 'lost'; readonly message: string };

export async function callTool(client: Client, name: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<Outcome> {
  let result: { content?: Array<{ type: string; text?: string }>; isError?: boolean };
  try {
    result = (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as typeof result;
  } catch (error) {
    return { kind: 'lost', message: error instanceof Error ? error.message : String(error) };
  }
  const text = result.content?.[0]?.text ?? '';
  if (result.isError) return { kind: 'hard', text };
  const doc = JSON.parse(text) as Doc;
  if (doc.success === false) return { kind: 'soft', doc, error: String(doc.error) };
  return { kind: 'ok', doc };
}

/** The document of a call that must succeed; anything else fails the test with the outcome. */
export async function mustCall(client: Client, name: string, args: Record<string, unknown>): Promise<Doc> {
  const outcome = await callTool(client, name, args);
  if (outcome.kind !== 'ok') throw new Error(`${name} ${JSON.stringify(args).slice(0, 200)} failed: ${JSON.stringify(outcome).slice(0, 500)}`);
  return outcome.doc;
}

/** Error phrases (mcp-tools.md §2.6) the tests meet on purpose. */
export const PHRASES = {
  W12: 'This worker has no current connection in this process.',
  W13: 'This worker connection was replaced.',
  W14: 'This worker connection was replaced or disconnected.',
  T1: 'Invalid transition:',
  T9: 'Only the worker holding this task can change it.',
  T10: 'Task is already held by another worker.',
  T11: 'A task must be accepted by someone other than the worker that proposed it.',
  T17: "The task's reviewer cannot also take its work lease.",
} as const;

export const isPhrase = (text: string, ...phrases: string[]) => phrases.some((p) => text.startsWith(p));

/** Registers (or reconnects) a durable worker; returns its worker_id and session. */
export async function registerWorker(
  client: Client,
  args: { room_id: string; registration_key?: string; worker_id?: string; display_name?: string },
): Promise<{ workerId: string; sessionId: string; displayName: string; actorLabel: string; agentKey: string }> {
  const doc = await mustCall(client, 'register_agent_session', args);
  const session = doc.agent_session as { session_id: string; display_name: string; actor_label: string; agent_key: string };
  return {
    workerId: String(doc.worker_id),
    sessionId: session.session_id,
    displayName: session.display_name,
    actorLabel: session.actor_label,
    agentKey: session.agent_key,
  };
}
