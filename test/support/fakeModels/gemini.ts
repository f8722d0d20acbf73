// A fake of the Gemini API (generateContent, and streamGenerateContent as server-sent
// events) that the real Gemini CLI talks to through GOOGLE_GEMINI_BASE_URL. Gemini names our
// MCP tools mcp_letagents_<tool>; requests that offer none (its model router, loop checks)
// get a short JSON answer.
import type { FakeModelServer } from './http';
import { json, listen } from './http';
import type { ModelRequest, ModelScript } from './script';

const TOOL_PREFIX = 'mcp_letagents_';
export const FAKE_GEMINI_MODEL = 'gemini-fake';
/** What every answer reports as used. */
export const GEMINI_USAGE = { input: 100, output: 20 } as const;

interface Part { text?: string; functionCall?: unknown; functionResponse?: { name?: string; response?: unknown } }
interface GeminiBody {
  contents?: Array<{ role?: string; parts?: Part[] }>;
  tools?: Array<{ functionDeclarations?: Array<{ name?: string }> }>;
}

/** Helper calls (routing, checks) answered in one JSON shape that each reads what it needs from. */
const UTILITY_ANSWER = JSON.stringify({ reasoning: 'fake', complexity_reasoning: 'fake', complexity_score: 10, next_speaker: 'user' });

export async function startFakeGemini(script: ModelScript): Promise<FakeModelServer> {
  let n = 0;
  const server = await listen(async (req, body, res) => {
    const [path, query] = (req.url ?? '').split('?');
    const match = /^\/v1(?:beta)?\/models\/([^:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
    if (!match || req.method !== 'POST') return json(res, 404, { error: { code: 404, message: path, status: 'NOT_FOUND' } });
    if (match[2] === 'countTokens') return json(res, 200, { totalTokens: 10 });
    const b = (body ?? {}) as GeminiBody;
    const ours = (b.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name ?? '').filter((name) => name.startsWith(TOOL_PREFIX));
    const step = ours.length > 0 ? await script.next(toRequest(b, ours)) : ({ kind: 'text', text: UTILITY_ANSWER } as const);
    if (step.kind === 'refuse') return json(res, step.status, step.body);
    n++;
    const part =
      step.kind === 'tool'
        ? { functionCall: { id: `call_fake_${n}`, name: step.builtIn ? step.name : TOOL_PREFIX + step.name, args: step.args(script.requests[script.requests.length - 1]) } }
        : { text: step.text };
    const answer = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: step.kind === 'text' && step.stop === 'max_tokens' ? 'MAX_TOKENS' : 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: GEMINI_USAGE.input, candidatesTokenCount: GEMINI_USAGE.output, totalTokenCount: GEMINI_USAGE.input + GEMINI_USAGE.output },
      modelVersion: FAKE_GEMINI_MODEL,
    };
    if (match[2] === 'generateContent' || !query?.includes('alt=sse')) return json(res, 200, answer);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`data: ${JSON.stringify(answer)}\n\n`);
  });
  // The CLI reads its key and endpoint from the environment; the home's settings pick key sign-in.
  return { url: server.url, env: { GEMINI_API_KEY: 'fake-key-for-the-local-fake-model', GOOGLE_GEMINI_BASE_URL: server.url }, close: server.close };
}

/** The settings.json of a Gemini home that signs in with the key and uses the fake model. */
export function geminiSettings(): string {
  return `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, model: { name: FAKE_GEMINI_MODEL } }, null, 2)}\n`;
}

function toRequest(b: GeminiBody, tools: string[]): ModelRequest {
  const prompts: string[] = [];
  const toolResults: string[] = [];
  for (const content of b.contents ?? []) {
    for (const part of content.parts ?? []) {
      if (content.role === 'user' && typeof part.text === 'string') prompts.push(part.text);
      if (part.functionResponse) toolResults.push(JSON.stringify(part.functionResponse.response ?? null));
    }
  }
  return { prompts, toolResults, mcpTools: tools.map((t) => t.slice(TOOL_PREFIX.length)), raw: b };
}
