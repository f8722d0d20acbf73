// Agents for end-to-end flows: each one a real `letagents-desktop mcp` helper process with
// an MCP SDK client, joined to a room and registered under a display name.
import { connectHelper, type HelperClient } from '../../support';

/** A tool's parsed JSON (or {isError, text}); loosely typed on purpose: each flow checks the fields it needs. */
export type ToolAnswer = ReturnType<typeof JSON.parse>;

export interface Agent {
  readonly client: HelperClient;
  readonly workerId: string;
  readonly roomId: string;
  /** Calls a tool as this worker (worker_id is added); an error result comes back as {isError, text}. */
  call(tool: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

let keys = 0;

/** Connects a helper, joins (or creates) the named room and registers as `name`. */
export async function joinAgent(dataDir: string, options: { room: string; name: string; clientName?: string }): Promise<Agent> {
  const client = await connectHelper(dataDir, { clientName: options.clientName ?? 'claude-code' });
  const raw = async (tool: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
    const result = (await client.callTool({ name: tool, arguments: args })) as { content: Array<{ text: string }>; isError?: boolean };
    const text = result.content[0]?.text ?? '';
    if (result.isError) return { isError: true, text };
    return JSON.parse(text);
  };
  const joined = await raw('join_room', { name: options.room });
  if (joined.isError || !joined.room_id) throw new Error(`join_room failed: ${JSON.stringify(joined)}`);
  const registered = await raw('register_agent_session', {
    room_id: joined.room_id,
    registration_key: `e2e-${process.pid}-${++keys}-${options.name}-4f7a9c2e81d6b035`,
    display_name: options.name,
  });
  if (registered.isError) throw new Error(`register_agent_session failed: ${registered.text}`);
  const workerId = registered.worker_id as string;
  return {
    client,
    workerId,
    roomId: joined.room_id as string,
    call: (tool, args = {}) => raw(tool, { worker_id: workerId, ...args }),
    close: () => client.close(),
  };
}

/** The cursor an agent resumes waiting from: a first wait returns at once with it. */
export async function currentCursor(agent: Agent): Promise<string | null> {
  const first = await agent.call('wait_for_messages', { timeout: 1000 });
  return first.last_observed_message_id as string | null;
}

/** The agents a test file joins to its app, closed together when it ends. */
export interface AgentPool {
  /** The agents joined so far, in order. */
  readonly joined: readonly Agent[];
  /** Joins `name` to `room` (creating it) on a new helper connection. */
  join(room: string, name: string): Promise<Agent>;
  closeAll(): Promise<void>;
}

/** `dataDir`: the app's data folder, read when an agent joins (the app is opened after the pool). */
export function agentPool(dataDir: () => string): AgentPool {
  const joined: Agent[] = [];
  return {
    joined,
    async join(room, name) {
      const agent = await joinAgent(dataDir(), { room, name });
      joined.push(agent);
      return agent;
    },
    closeAll: async () => {
      await Promise.all(joined.splice(0).map((agent) => agent.close()));
    },
  };
}
