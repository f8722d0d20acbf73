// A fake of Anthropic's Messages API (streamed as server-sent events, plus count_tokens)
// that Claude Code talks to through ANTHROPIC_BASE_URL. Agent turns (requests offering our
// MCP tools) follow the test's script; Claude Code's background calls get a short text.
import type { FakeModelServer } from './http';
import { eventStream, json, listen } from './http';
import type { ModelRequest, ModelScript } from './script';

const TOOL_PREFIX = 'mcp__letagents__';
/** What every answer reports as used, so tests can check the per-turn figures. */
export const ANTHROPIC_USAGE = { input: 100, output: 20 } as const;

interface AnthropicBody {
  model?: string;
  tools?: Array<{ name?: string }>;
  messages?: Array<{ role: string; content: unknown }>;
}

export async function startFakeAnthropic(script: ModelScript): Promise<FakeModelServer> {
  let n = 0;
  const server = await listen(async (req, body, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/v1/messages/count_tokens') return json(res, 200, { input_tokens: 10 });
    if (path !== '/v1/messages' || req.method !== 'POST') return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: path } });
    const b = (body ?? {}) as AnthropicBody;
    const names = (b.tools ?? []).map((t) => t.name ?? '');
    const isTurn = names.some((name) => name.startsWith(TOOL_PREFIX) || name === 'ToolSearch');
    const step = isTurn ? await script.next(toRequest(b, names)) : ({ kind: 'text', text: 'Title' } as const);
    const id = `msg_fake_${++n}`;
    const stream = eventStream(res);
    stream.send('message_start', {
      message: { id, type: 'message', role: 'assistant', model: b.model ?? 'fake', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: ANTHROPIC_USAGE.input, output_tokens: 1 } },
    });
    if (step.kind === 'tool') {
      stream.send('content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_fake_${n}`, name: step.builtIn ? step.name : TOOL_PREFIX + step.name, input: {} } });
      stream.send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.args(lastRequest(script))) } });
    } else {
      stream.send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      stream.send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: step.text } });
    }
    stream.send('content_block_stop', { index: 0 });
    stream.send('message_delta', { delta: { stop_reason: step.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: ANTHROPIC_USAGE.output } });
    stream.send('message_stop', {});
    stream.end();
  });
  return {
    url: server.url,
    env: {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'fake-key-for-the-local-fake-model',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
    close: server.close,
  };
}

function lastRequest(script: ModelScript): ModelRequest {
  return script.requests[script.requests.length - 1];
}

function toRequest(b: AnthropicBody, names: string[]): ModelRequest {
  const prompts: string[] = [];
  const toolResults: string[] = [];
  for (const message of b.messages ?? []) {
    if (message.role !== 'user') continue;
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Array<Record<string, unknown>>);
    for (const block of blocks ?? []) {
      if (block.type === 'text' && typeof block.text === 'string') prompts.push(block.text);
      if (block.type === 'tool_result') toolResults.push(textOf(block.content));
    }
  }
  return { prompts, toolResults, mcpTools: names.filter((n) => n.startsWith(TOOL_PREFIX)).map((n) => n.slice(TOOL_PREFIX.length)), raw: b };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('\n') : '';
}
