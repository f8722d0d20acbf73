// What the helper remembers of its agent's worker handles, read from the traffic it relays, so
// that after an app restart it can bind them again on the new connection before the agent's
// next call (worker-handles.md §9: bindings live in the app's memory and die with it). It
// forgets a worker the agent disconnected, one a person ended (W15) and one another
// connection took over (W13): binding those again would undo what someone chose.

interface Call {
  readonly tool: string;
  readonly workerId: string | null;
  readonly roomId: string | null;
}

/** The phrases (mcp-tools.md §2.6) after which this helper must not bind the worker again. */
const LET_GO = ['This agent session has ended.', 'This worker connection was replaced.'];

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A tools/call result's JSON document (structuredContent, else its text), or null. */
function resultDocument(frame: Buffer): { isError: boolean; doc: Record<string, unknown> | null } | null {
  let message: { result?: { isError?: boolean; structuredContent?: unknown; content?: Array<{ text?: unknown }> } };
  try {
    message = JSON.parse(frame.toString('utf8')) as typeof message;
  } catch {
    return null;
  }
  const result = message.result;
  if (!result) return null;
  let doc = result.structuredContent;
  if (doc === undefined && typeof result.content?.[0]?.text === 'string') {
    try {
      doc = JSON.parse(result.content[0].text);
    } catch {
      doc = undefined;
    }
  }
  return { isError: result.isError === true, doc: typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>) : null };
}

export class WorkerMemory {
  /** worker_id → the room it was registered in. */
  private readonly workers = new Map<string, string>();
  /** Requests about a worker sent on the current connection, by request key. */
  private readonly calls = new Map<string, Call>();

  /** An agent request on its way to the app. */
  sent(key: string, method: unknown, params: unknown): void {
    if (method !== 'tools/call' || typeof params !== 'object' || params === null) return;
    const { name, arguments: args } = params as { name?: unknown; arguments?: Record<string, unknown> };
    if (typeof name !== 'string') return;
    const workerId = str(args?.worker_id);
    if (name !== 'register_agent_session' && workerId === null) return;
    this.calls.set(key, { tool: name, workerId, roomId: str(args?.room_id) });
  }

  /** The app's answer (its frame, as it came: looked into, parsed only for a registration) to request `key`. */
  answered(key: string, frame: Buffer): void {
    const call = this.calls.get(key);
    if (!call) return;
    this.calls.delete(key);
    if (call.workerId !== null && LET_GO.some((phrase) => frame.includes(phrase))) {
      this.workers.delete(call.workerId);
      return;
    }
    if (call.tool !== 'register_agent_session' && call.tool !== 'disconnect_agent_session') return;
    const answer = resultDocument(frame);
    if (!answer || answer.isError || answer.doc?.success === false) return;
    if (call.tool === 'disconnect_agent_session') {
      if (call.workerId !== null) this.workers.delete(call.workerId);
      return;
    }
    const workerId = str(answer.doc?.worker_id);
    if (workerId !== null && call.roomId !== null) this.workers.set(workerId, call.roomId);
  }

  /** The connection is gone: its unanswered requests will never be answered. */
  connectionLost(): void {
    this.calls.clear();
  }

  /** The register_agent_session calls that bind every remembered worker again. */
  rebindCalls(): Array<{ worker_id: string; room_id: string }> {
    return [...this.workers].map(([worker_id, room_id]) => ({ worker_id, room_id }));
  }

  /** A rebind was refused with a phrase after which the worker is not ours to bind. */
  rebindAnswered(workerId: string, frame: Buffer): void {
    if (LET_GO.some((phrase) => frame.includes(phrase)) || frame.includes('Unknown worker_id')) this.workers.delete(workerId);
  }
}
