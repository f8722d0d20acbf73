// A fake of OpenAI's Responses API (streamed as server-sent events, plus /v1/models) that
// Codex, OpenCode and GitHub Copilot CLI talk to as a custom model provider. Codex lists our
// MCP tools under one namespace and the model calls them by name within it; OpenCode lists
// them as plain functions named letagents_<tool>, Copilot as letagents-<tool>.
import type { FakeModelServer } from './http';
import { eventStream, json, listen } from './http';
import type { ModelRequest, ModelScript } from './script';

const NAMESPACE = 'mcp__letagents';
/** OpenCode's and Copilot's names for our tools: <server>_<tool> and <server>-<tool>. */
const FUNCTION_PREFIXES = ['letagents_', 'letagents-'];
export const FAKE_OPENAI_MODEL = 'fake-model';
/** What every answer reports as used (Codex sums them per thread). */
export const OPENAI_USAGE = { input: 100, output: 20 } as const;

interface ResponsesBody {
  tools?: Array<{ type?: string; name?: string; tools?: Array<{ name?: string }> }>;
  input?: Array<Record<string, unknown>>;
}

export async function startFakeOpenAi(script: ModelScript): Promise<FakeModelServer> {
  let n = 0;
  const server = await listen(async (req, body, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/v1/models') return json(res, 200, { object: 'list', data: [{ id: FAKE_OPENAI_MODEL, object: 'model', created: 0, owned_by: 'fake' }] });
    if (path !== '/v1/responses' || req.method !== 'POST') return json(res, 404, { error: { message: path } });
    if (script.refusal) return json(res, script.refusal.status, script.refusal.body);
    const b = (body ?? {}) as ResponsesBody;
    const namespace = (b.tools ?? []).find((t) => t.type === 'namespace' && t.name === NAMESPACE);
    const prefix = FUNCTION_PREFIXES.find((p) => (b.tools ?? []).some((t) => t.type === 'function' && t.name?.startsWith(p))) ?? '';
    const functions = prefix ? (b.tools ?? []).filter((t) => t.type === 'function' && t.name?.startsWith(prefix)) : [];
    const ours = namespace ? (namespace.tools ?? []) : functions.map((t) => ({ name: t.name!.slice(prefix.length) }));
    const step = ours.length > 0 ? await script.next(toRequest(b, ours)) : ({ kind: 'text', text: 'Title' } as const);
    if (step.kind === 'refuse') return json(res, step.status, step.body);
    const id = ++n;
    // Codex calls within the namespace; OpenCode and Copilot by the prefixed name (their own tools by theirs).
    // Codex's own tools (e.g. exec_command) have no namespace; ours are under one.
    const call = namespace ? { ...(step.kind === 'tool' && step.builtIn ? {} : { namespace: NAMESPACE }), name: step.kind === 'tool' ? step.name : '' } : { name: step.kind === 'tool' && !step.builtIn ? prefix + step.name : step.kind === 'tool' ? step.name : '' };
    // An answer cut at the output limit ends `incomplete` (its message too), as OpenAI's API reports it.
    const cut = step.kind === 'text' && step.stop === 'max_tokens';
    const item =
      step.kind === 'tool'
        ? { type: 'function_call', id: `fc_fake_${id}`, call_id: `call_fake_${id}`, ...call, arguments: JSON.stringify(step.args(script.requests[script.requests.length - 1])), status: 'completed' }
        : { type: 'message', id: `msg_fake_${id}`, role: 'assistant', status: cut ? 'incomplete' : 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
    const stream = eventStream(res);
    stream.send('response.created', { response: { id: `resp_fake_${id}`, object: 'response', created_at: 0, model: FAKE_OPENAI_MODEL, status: 'in_progress', output: [] } });
    stream.send('response.output_item.added', { output_index: 0, item });
    // OpenCode (the AI SDK) takes a message's text from its deltas; Codex from the finished item.
    if (step.kind === 'text') stream.send('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: step.text });
    stream.send('response.output_item.done', { output_index: 0, item });
    stream.send(cut ? 'response.incomplete' : 'response.completed', {
      response: {
        id: `resp_fake_${id}`, object: 'response', created_at: 0, model: FAKE_OPENAI_MODEL, status: cut ? 'incomplete' : 'completed', output: [item],
        ...(cut ? { incomplete_details: { reason: 'max_output_tokens' } } : {}),
        usage: { input_tokens: OPENAI_USAGE.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: OPENAI_USAGE.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: OPENAI_USAGE.input + OPENAI_USAGE.output },
      },
    });
    stream.end();
  });
  return { url: server.url, env: { FAKE_OPENAI_KEY: 'fake-key-for-the-local-fake-model' }, close: server.close };
}

/** The lines of a Codex config.toml that make `fake-model` on this server the default. */
export function codexConfigFor(server: FakeModelServer): string {
  return [
    `model = "${FAKE_OPENAI_MODEL}"`,
    'model_provider = "fake"',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${server.url}/v1"`,
    'env_key = "FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
    '',
  ].join('\n');
}

/** An OpenCode config (~/.config/opencode/opencode.json) whose model is `fake/fake-model` on this server. */
export function opencodeConfigFor(server: FakeModelServer): string {
  return JSON.stringify({
    model: `fake/${FAKE_OPENAI_MODEL}`,
    provider: { fake: { npm: '@ai-sdk/openai', name: 'Fake', options: { baseURL: `${server.url}/v1`, apiKey: 'fake-key-for-the-local-fake-model' }, models: { [FAKE_OPENAI_MODEL]: { name: 'Fake' } } } },
  });
}

function toRequest(b: ResponsesBody, tools: Array<{ name?: string }>): ModelRequest {
  const prompts: string[] = [];
  const toolResults: string[] = [];
  for (const item of b.input ?? []) {
    // Codex sends typed message items; OpenCode plain { role, content } ones (content a string or parts).
    if ((item.type === 'message' || item.type === undefined) && item.role === 'user') {
      if (typeof item.content === 'string') prompts.push(item.content);
      else for (const part of (item.content as Array<Record<string, unknown>>) ?? []) if (typeof part.text === 'string') prompts.push(part.text);
    }
    if (item.type === 'function_call_output') {
      const output = item.output;
      toolResults.push(typeof output === 'string' ? output : Array.isArray(output) ? output.map((o: { text?: string }) => o.text ?? '').join('\n') : '');
    }
  }
  return { prompts, toolResults, mcpTools: tools.map((t) => t.name ?? ''), raw: b };
}
