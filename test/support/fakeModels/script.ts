// The script a fake model server follows: a queue of model turns ("call tool X with these
// arguments", "say this"), optionally held at a gate until the test opens it, per agent.
// The model is the only fake in the managed-agent tests: it lives outside this machine.

/** What the fake model saw in one request: the conversation's text and its tool results. */
export interface ModelRequest {
  /** Every user-side text of the conversation so far (prompts, in order). */
  readonly prompts: string[];
  /** Every tool result the conversation holds so far, in order. */
  readonly toolResults: string[];
  /** The names of the MCP tools the CLI offered (without prefixes). */
  readonly mcpTools: string[];
  readonly raw: unknown;
}

export type ModelStep =
  /** `builtIn`: one of the CLI's own tools (e.g. Claude Code's Write), not one of ours. */
  | { readonly kind: 'tool'; readonly name: string; readonly args: (request: ModelRequest) => Record<string, unknown>; readonly builtIn?: boolean }
  /** `stop: 'max_tokens'`: the answer is cut at the model's output token limit (each fake says so in its API's words). */
  | { readonly kind: 'text'; readonly text: string; readonly stop?: 'max_tokens' }
  | { readonly kind: 'gate'; readonly opened: Promise<void>; readonly then: ModelStep }
  /** Steps chosen when the request arrives, from what it carries (e.g. the turn prompt). */
  | { readonly kind: 'choose'; readonly pick: (request: ModelRequest) => ModelStep[] }
  /** The provider refuses this request (Anthropic's fake only): a usage or rate limit in the middle of a turn. */
  | { readonly kind: 'refuse'; readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> };

export const say = (text: string): ModelStep => ({ kind: 'text', text });
export const callTool = (name: string, args: Record<string, unknown> | ((request: ModelRequest) => Record<string, unknown>) = {}): ModelStep => ({
  kind: 'tool',
  name,
  args: typeof args === 'function' ? args : () => args,
});

/**
 * An answer cut at the output token limit, every time (four requests' worth: the most a CLI
 * asks). Claude Code 2.1.332 asks the model to resume three times ("Output token limit hit.
 * Resume directly…"), then ends the turn with `"api_error":"max_output_tokens"`; what the other
 * CLIs do: docs/managed-agents.md, test/main/agents/noReplyClis.test.ts (seen against these fakes).
 */
export const cutAtOutputLimit = (text: string): ModelStep[] => Array.from({ length: 4 }, () => ({ kind: 'text', text, stop: 'max_tokens' }) as const);

/**
 * A turn that writes no text at all (four requests' worth: Gemini CLI 0.61 tries three more
 * times). Claude Code 2.1.332 asks once more ("[Your previous response had no visible output…]"),
 * then ends with an empty result (seen against this fake).
 */
export const sayNothingAtAll = (): ModelStep[] => Array.from({ length: 4 }, () => say(''));

/**
 * The model of an @all answered in turn (issue 34): it answers the question in the room only when
 * no earlier answer (`earlierAnswer`, the text an agent would post) is in its prompt; otherwise it
 * ends its turn without posting anything in the room (a short word only in its own log).
 */
export const answerUnlessAnswered = (answer: string): ModelStep => ({
  kind: 'choose',
  pick: (request) => (request.prompts.some((p) => p.includes(answer)) ? [say('Someone already answered; nothing to add.')] : replyInRoom(answer)),
});

/** Calls one of the CLI's own tools (Claude Code's Write, Codex's exec_command) by its plain name. */
export const callBuiltInTool = (name: string, args: Record<string, unknown>): ModelStep => ({ kind: 'tool', name, args: () => args, builtIn: true });

/** A refused request (Anthropic's fake): `refusal` as usageLimitRefusal() or RATE_LIMITED make it. */
export const refuse = (refusal: { status: number; body: unknown; headers?: Readonly<Record<string, string>> }): ModelStep => ({ kind: 'refuse', ...refusal });

/** A step that waits until `open()` (a model that is slow to answer). */
export function gate(then: ModelStep): { step: ModelStep; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { step: { kind: 'gate', opened, then }, open };
}

/** The identity the app put in the turn prompt (the newest prompt wins). */
export function identityIn(request: ModelRequest): { worker_id: string; room_id: string } {
  for (const prompt of [...request.prompts].reverse()) {
    const match = /worker_id "(worker_[0-9a-f]{32})" in room_id "([^"]+)"/.exec(prompt);
    if (match) return { worker_id: match[1], room_id: match[2] };
  }
  throw new Error('The turn prompt carries no worker_id and room_id.');
}

/** The agent's own worktree, as the turn prompt names it. */
export function worktreeIn(request: ModelRequest): string {
  const match = /your own git worktree \(([^)]+)\)/.exec(request.prompts.join('\n'));
  if (!match) throw new Error('The turn prompt names no worktree.');
  return match[1];
}

/** Claude Code's Write of `file` (a path inside the agent's worktree). */
export const writeInWorktree = (file: string, content: string): ModelStep => ({
  kind: 'tool',
  name: 'Write',
  builtIn: true,
  args: (r) => ({ file_path: `${worktreeIn(r)}/${file}`, content }),
});

/** The usual managed turn: register with the given identity, post `text` in the room, finish. */
export function replyInRoom(text: string): ModelStep[] {
  return [
    callTool('register_agent_session', (r) => identityIn(r)),
    callTool('send_message', (r) => ({ worker_id: identityIn(r).worker_id, text })),
    say('Answered in the room.'),
  ];
}

export class ModelScript {
  private readonly queues = new Map<string, ModelStep[]>();
  /** Main (agent-turn) requests, in arrival order, with the agent they were for and when (performance.now()). */
  readonly requests: Array<ModelRequest & { agent: string | null; at: number }> = [];
  /**
   * When set, every agent turn's request is refused with this HTTP status, body and headers (a
   * revoked key, a used-up quota with Anthropic's rate-limit headers).
   */
  refusal: { status: number; body: unknown; headers?: Readonly<Record<string, string>> } | null = null;
  /** Agent turn requests refused so far. */
  refused = 0;

  /** Steps for the agent named `agent` (matched by "You are <agent>," in its prompt); null: any agent. */
  push(agent: string | null, ...steps: ModelStep[]): void {
    const key = agent ?? '';
    this.queues.set(key, [...(this.queues.get(key) ?? []), ...steps]);
  }

  /** The next step for this request: its agent's queue, else the shared one, else "Done.". */
  async next(request: ModelRequest): Promise<Exclude<ModelStep, { kind: 'gate' } | { kind: 'choose' }>> {
    const agent = agentOf(request);
    this.requests.push({ ...request, agent, at: performance.now() });
    const queue = (agent !== null && this.queues.get(agent)?.length ? this.queues.get(agent) : this.queues.get('')) ?? [];
    let step = queue.shift() ?? say('Done.');
    for (;;) {
      if (step.kind === 'gate') {
        await step.opened;
        step = step.then;
      } else if (step.kind === 'choose') {
        const [first = say('Done.'), ...rest] = step.pick(request);
        queue.unshift(...rest);
        step = first;
      } else return step;
    }
  }

  requestsFor(agent: string): ModelRequest[] {
    return this.requests.filter((r) => r.agent === agent);
  }
}

function agentOf(request: ModelRequest): string | null {
  for (const prompt of [...request.prompts].reverse()) {
    const match = /You are ([^,\n]+), an AI coding agent that LetAgents Desktop runs/.exec(prompt);
    if (match) return match[1];
  }
  return null;
}
