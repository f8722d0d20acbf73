// A fake of OpenAI's Responses API (streamed as server-sent events, plus /v1/models) that
// Codex talks to as a custom model provider. Codex lists our MCP tools under one namespace;
// the model calls them by name within it.
import type { FakeModelServer } from './http';
import { eventStream, json, listen } from './http';
import type { ModelRequest, ModelScript } from './script';

const NAMESPACE = 'mcp__letagents';
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
    const step = namespace ? await script.next(toRequest(b, namespace.tools ?? [])) : ({ kind: 'text', text: 'Title' } as const);
    const id = ++n;
    const item =
      step.kind === 'tool'
        ? {
            type: 'function_call', id: `fc_fake_${id}`, call_id: `call_fake_${id}`,
            // Codex's own tools (e.g. exec_command) have no namespace; ours are under one.
            ...(step.builtIn ? {} : { namespace: NAMESPACE }),
            name: step.name, arguments: JSON.stringify(step.args(script.requests[script.requests.length - 1])), status: 'completed',
          }
        : { type: 'message', id: `msg_fake_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
    const stream = eventStream(res);
    stream.send('response.created', { response: { id: `resp_fake_${id}`, object: 'response', status: 'in_progress', output: [] } });
    stream.send('response.output_item.added', { output_index: 0, item });
    stream.send('response.output_item.done', { output_index: 0, item });
    stream.send('response.completed', {
      response: {
        id: `resp_fake_${id}`, object: 'response', status: 'completed', output: [item],
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

function toRequest(b: ResponsesBody, tools: Array<{ name?: string }>): ModelRequest {
  const prompts: string[] = [];
  const toolResults: string[] = [];
  for (const item of b.input ?? []) {
    if (item.type === 'message' && item.role === 'user') {
      for (const part of (item.content as Array<Record<string, unknown>>) ?? []) if (typeof part.text === 'string') prompts.push(part.text);
    }
    if (item.type === 'function_call_output') {
      const output = item.output;
      toolResults.push(typeof output === 'string' ? output : Array.isArray(output) ? output.map((o: { text?: string }) => o.text ?? '').join('\n') : '');
    }
  }
  return { prompts, toolResults, mcpTools: tools.map((t) => t.name ?? ''), raw: b };
}
