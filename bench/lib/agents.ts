// Agents as benchmarks drive them: call a tool and read its JSON, join a room and
// register a durable worker, as the agent prompt tells real agents to.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export type Json = Record<string, unknown>;

/** Calls a tool and parses its JSON text; a hard failure or a soft `success:false` throws. */
export async function callTool(client: Client, name: string, args: Json = {}, timeoutMs = 60_000, signal?: AbortSignal): Promise<Json> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs, signal })) as {
    content: Array<{ type: string; text?: string }>;
    isError?: boolean;
  };
  const text = result.content[0]?.text ?? '';
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  const json = JSON.parse(text) as Json;
  if (json.success === false) throw new Error(`${name} failed: ${text}`);
  return json;
}

export interface Worker {
  readonly client: Client;
  readonly workerId: string;
  readonly roomId: string;
}

/** join_room (creating it if missing; in `team`, a team's name or "local", when given) and register_agent_session with a fresh key. */
export async function joinAsWorker(client: Client, roomId: string, displayName: string, team?: string): Promise<Worker> {
  await callTool(client, 'join_room', { name: roomId, ...(team ? { team } : {}) });
  const registered = await callTool(client, 'register_agent_session', {
    room_id: roomId,
    registration_key: `bench-${displayName}-${process.pid}-4f7a9c2e81d6b035`,
    display_name: displayName,
  });
  return { client, workerId: String(registered.worker_id), roomId };
}

/** Codename-like display names: Agent01, Agent02, … */
export const agentName = (i: number) => `Bench${String(i + 1).padStart(2, '0')}`;
