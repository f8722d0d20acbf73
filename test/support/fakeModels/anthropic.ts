// A fake of Anthropic's Messages API (streamed as server-sent events, plus count_tokens)
// that Claude Code talks to through ANTHROPIC_BASE_URL. Agent turns (requests offering our
// MCP tools) follow the test's script; Claude Code's background calls get a short text.
import type { FakeModelServer } from './http';
import { eventStream, json, listen } from './http';
import type { ModelRequest, ModelScript } from './script';

const TOOL_PREFIX = 'mcp__letagents__';
/** What every answer reports as used, so tests can check the per-turn figures. */
export const ANTHROPIC_USAGE = { input: 100, output: 20 } as const;

/**
 * Anthropic's answer to a request over a used-up usage limit, as Claude Code 2.1.332 reads it:
 * 429 with the `anthropic-ratelimit-unified-*` headers (the reset in unix seconds) and
 * `x-should-retry: false` (so the CLI reports it at once instead of retrying). Claude Code
 * reads these only for claude.ai plans and a Claude gateway (`claudeGatewayEnv`).
 */
export function usageLimitRefusal(resetsAtMs: number): { status: number; body: unknown; headers: Record<string, string> } {
  const reset = String(Math.floor(resetsAtMs / 1_000));
  return {
    status: 429,
    body: { type: 'error', error: { type: 'rate_limit_error', message: "This request would exceed your account's rate limit. Please try again later." } },
    headers: {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': reset,
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': reset,
      'x-should-retry': 'false',
    },
  };
}

/** A short rate limit as an API key gets it: 429 without a reset time. */
export const RATE_LIMITED = {
  status: 429,
  body: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } },
  headers: { 'x-should-retry': 'false' },
} as const;

/**
 * Claude Code signed in through a Claude gateway instead of an API key: a bearer token whose
 * JWT audience is "claude-gateway" (unsigned: the fake checks nothing) and a base URL that is
 * not Anthropic's. Claude Code then reads the usage-limit headers as it does for claude.ai plans.
 */
export function claudeGatewayEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const { ANTHROPIC_API_KEY: _key, ...rest } = env;
  return { ...rest, ANTHROPIC_AUTH_TOKEN: `${part({ alg: 'none', typ: 'JWT' })}.${part({ aud: 'claude-gateway', exp: 4_102_444_800 })}.fake` };
}

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
    if (isTurn && script.refusal) {
      script.refused++;
      res.writeHead(script.refusal.status, { 'content-type': 'application/json', ...script.refusal.headers });
      return void res.end(JSON.stringify(script.refusal.body));
    }
    const step = isTurn ? await script.next(toRequest(b, names)) : ({ kind: 'text', text: 'Title' } as const);
    if (step.kind === 'refuse') {
      script.refused++;
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
      return void res.end(JSON.stringify(step.body));
    }
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
    const stop = step.kind === 'tool' ? 'tool_use' : (step.stop ?? 'end_turn');
    stream.send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: ANTHROPIC_USAGE.output } });
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
