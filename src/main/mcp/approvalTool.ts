// The permission-prompt tool of managed "Ask me" turns (Claude Code's --permission-prompt-tool):
// listed and answered only on the connection of such a turn (its helper's hello carries the
// turn key), never by another agent. Claude Code calls it with the tool it wants to use and
// waits; the person answers in "Needs you". Claude Code 2.1.332 takes only a result of exactly
// one text block (no structuredContent): `{"behavior":"allow","updatedInput":…}` or
// `{"behavior":"deny","message":…}`. The answer counts as delivered once that result was
// written to the turn's helper (issue 37); if the write fails, the request opens again.
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalAnswer } from '../approvals/approvals';
import { previewOf, summaryOf } from '../approvals/requestText';
import type { ToolEnv } from './services';

export const APPROVAL_TOOL = 'permission_prompt';

export const APPROVAL_TOOL_LISTING: Tool = {
  name: APPROVAL_TOOL,
  title: 'Ask the person',
  description: "Claude Code's permission prompt for this managed turn: asks the person in LetAgents to allow a tool use.",
  inputSchema: {
    type: 'object',
    properties: { tool_name: { type: 'string' }, input: { type: 'object' }, tool_use_id: { type: 'string' } },
    required: ['tool_name'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const text = (value: unknown, isError = false): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError } : {}) });

export async function callApprovalTool(env: ToolEnv, args: Record<string, unknown> | undefined, requestId: string | number): Promise<CallToolResult> {
  const key = env.conn.info.turnKey ?? null;
  const turn = env.services.approvals.turnOf(key);
  const deny = (message: string) => text({ behavior: 'deny', message });
  if (!turn) return deny('Only a managed agent\'s own "Ask me" turn may ask the person through LetAgents.');
  const tool = typeof args?.tool_name === 'string' && args.tool_name.trim() !== '' ? args.tool_name.slice(0, 200) : null;
  if (!tool) return deny('tool_name is required.');
  const input = args?.input && typeof args.input === 'object' ? (args.input as Record<string, unknown>) : {};
  let answerCall!: (answer: ApprovalAnswer) => void;
  const answered = new Promise<ApprovalAnswer>((resolve) => (answerCall = resolve));
  let handedOver = false;
  // The call's result is the only way to the agent: once it went (or failed to), a later answer cannot follow it.
  const deliver = async (answer: ApprovalAnswer) => {
    if (handedOver) throw new Error("the agent's request is gone: its connection to the app dropped");
    handedOver = true;
    const written = env.conn.whenReplied(requestId);
    answerCall(answer);
    await written;
  };
  await env.services.approvals.ask(
    {
      owner: key!,
      source: 'managed_turn',
      room_id: turn.roomId,
      session_id: turn.sessionId,
      request_id: typeof args?.tool_use_id === 'string' ? args.tool_use_id.slice(0, 200) : null,
      agent_name: turn.agentName,
      tool,
      description: summaryOf(input),
      input_preview: previewOf(input),
    },
    key,
    deliver,
  );
  const answer = await answered;
  return answer.behavior === 'allow' ? text({ behavior: 'allow', updatedInput: input }) : deny(answer.message);
}
