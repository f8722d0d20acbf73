// What each provider is started with (the permission the person chose, only our MCP server,
// resume), and how its stream becomes the activity log — lines as the real CLIs print them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeCode } from '../../../src/main/agents/providers/claudeCode';
import { codex } from '../../../src/main/agents/providers/codex';
import type { TurnSpec } from '../../../src/main/agents/types';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function spec(overrides: Partial<TurnSpec> = {}): TurnSpec {
  const home = mkdtempSync(join(tmpdir(), 'la-provider-'));
  dirs.push(home);
  return {
    provider: 'claude_code',
    folder: '/work/project',
    model: null,
    permissions: 'read_only',
    resumeSessionId: null,
    helper: { command: '/usr/bin/node', args: ['/opt/la/bin/letagents-desktop.js', 'mcp', '--data-dir', '/data'] },
    agentDir: join(home, 'agent'),
    env: { PATH: '/usr/bin' },
    home,
    ...overrides,
  };
}

const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('Claude Code', () => {
  it('gets only our helper as MCP server, our tools allowed, and the permission chosen', () => {
    const readOnly = claudeCode.launch(spec(), 'claude');
    expect(readOnly.args).toEqual(expect.arrayContaining(['-p', '--output-format', 'stream-json', '--strict-mcp-config']));
    expect(after(readOnly.args, '--allowedTools')).toBe('mcp__letagents__*,Read');
    expect(after(readOnly.args, '--permission-mode')).toBe('dontAsk');
    const config = JSON.parse(readOnly.files[0].contents);
    expect(Object.keys(config.mcpServers)).toEqual(['letagents']);
    expect(config.mcpServers.letagents).toEqual({ type: 'stdio', command: '/usr/bin/node', args: ['/opt/la/bin/letagents-desktop.js', 'mcp', '--data-dir', '/data'] });
    expect(after(readOnly.args, '--mcp-config')).toBe(readOnly.files[0].path);

    const edit = claudeCode.launch(spec({ permissions: 'edit', model: 'opus', resumeSessionId: 'abc' }), 'claude');
    expect(after(edit.args, '--allowedTools')).toBe('mcp__letagents__*,Read,Edit,Write,NotebookEdit');
    expect(after(edit.args, '--model')).toBe('opus');
    expect(after(edit.args, '--resume')).toBe('abc');

    const own = claudeCode.launch(spec({ permissions: 'provider_default' }), 'claude');
    expect(own.args).not.toContain('--permission-mode');
    expect(after(own.args, '--allowedTools')).toBe('mcp__letagents__*');
  });

  it('turns stream-json into session, tool calls, results, text, usage and the result', () => {
    const parser = claudeCode.parser();
    const events = [
      '{"type":"system","subtype":"init","session_id":"s-1","mcp_servers":[{"name":"letagents","status":"connected"}]}',
      '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"mcp__letagents__send_message","input":{"text":"hi"}}]}}',
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"{\\"id\\":\\"msg_3\\"}"}]}]}}',
      '{"type":"assistant","message":{"content":[{"type":"text","text":"Done."}]}}',
      '{"type":"result","subtype":"success","is_error":false,"total_cost_usd":0.5,"usage":{"input_tokens":10,"cache_read_input_tokens":5,"output_tokens":3},"permission_denials":[{"tool_name":"Write"}]}',
      'not json',
    ].flatMap((line) => parser.parse(line));
    expect(events).toEqual([
      { kind: 'session', sessionId: 's-1' },
      { kind: 'tool_call', tool: 'send_message', input: '{"text":"hi"}' },
      { kind: 'tool_result', tool: 'send_message', ok: true, text: '{"id":"msg_3"}' },
      { kind: 'text', text: 'Done.' },
      { kind: 'usage', inputTokens: 15, outputTokens: 3, tokensScope: 'run', costUsd: 0.5, costScope: 'session' },
      { kind: 'note', text: 'Not allowed to use Write (outside the permissions chosen for this agent).' },
      { kind: 'result', ok: true, error: null },
    ]);
    expect(claudeCode.parser().parse('{"type":"system","subtype":"init","session_id":"s","mcp_servers":[{"name":"letagents","status":"failed"}]}')).toContainEqual({
      kind: 'error',
      text: 'LetAgents tools did not connect (failed).',
    });
  });
});

describe('Codex', () => {
  it("turns the person's other MCP servers off, sets the sandbox per permission, and resumes by thread", () => {
    const s = spec({ provider: 'codex' });
    mkdirSync(join(s.home, '.codex'));
    writeFileSync(join(s.home, '.codex', 'config.toml'), '[mcp_servers.letagents]\ncommand = "old"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n\n[mcp_servers."my docs"]\ncommand = "docs"\n');
    const launch = codex.launch(s, 'codex');
    const configs = launch.args.filter((_, i) => launch.args[i - 1] === '-c');
    expect(configs).toEqual([
      'mcp_servers.letagents={command="/usr/bin/node",args=["/opt/la/bin/letagents-desktop.js","mcp","--data-dir","/data"],env={},default_tools_approval_mode="approve"}',
      'mcp_servers.github.enabled=false',
      'mcp_servers."my docs".enabled=false',
      'sandbox_mode="read-only"',
      'approval_policy="never"',
    ]);
    expect(launch.args.slice(0, 3)).toEqual(['exec', '--json', '--skip-git-repo-check']);
    expect(launch.args.at(-1)).toBe('-');

    const resumed = codex.launch(spec({ provider: 'codex', permissions: 'edit', resumeSessionId: 'thread-1', model: 'gpt-x' }), 'codex');
    expect(resumed.args.slice(0, 2)).toEqual(['exec', 'resume']);
    expect(resumed.args.slice(-2)).toEqual(['thread-1', '-']);
    expect(resumed.args).toContain('sandbox_mode="workspace-write"');
    expect(after(resumed.args, '-m')).toBe('gpt-x');
    expect(codex.launch(spec({ provider: 'codex', permissions: 'provider_default' }), 'codex').args.join(' ')).not.toContain('sandbox_mode');
  });

  it('turns --json events into session, tool calls, results, text and running usage totals', () => {
    const parser = codex.parser();
    const events = [
      '{"type":"thread.started","thread_id":"th-1"}',
      '{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `m` not found."}}',
      '{"type":"item.started","item":{"id":"item_1","type":"mcp_tool_call","server":"letagents","tool":"send_message","arguments":{"text":"hi"},"status":"in_progress"}}',
      '{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"letagents","tool":"send_message","arguments":{},"result":{"content":[{"type":"text","text":"ok"}]},"error":null,"status":"completed"}}',
      '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Done."}}',
      '{"type":"turn.completed","usage":{"input_tokens":400,"cached_input_tokens":0,"output_tokens":80}}',
    ].flatMap((line) => parser.parse(line));
    expect(events).toEqual([
      { kind: 'session', sessionId: 'th-1' },
      { kind: 'note', text: 'Model metadata for `m` not found.' },
      { kind: 'tool_call', tool: 'send_message', input: '{"text":"hi"}' },
      { kind: 'tool_result', tool: 'send_message', ok: true, text: 'ok' },
      { kind: 'text', text: 'Done.' },
      { kind: 'usage', inputTokens: 400, outputTokens: 80, tokensScope: 'session', costUsd: null, costScope: 'session' },
      { kind: 'result', ok: true, error: null },
    ]);
    expect(codex.parser().parse('{"type":"turn.failed","error":{"message":"401 Unauthorized"}}')).toEqual([{ kind: 'result', ok: false, error: '401 Unauthorized', cause: 'not_signed_in' }]);
  });
});

describe('failures only the person can fix (the CLIs\' own words, seen offline)', () => {
  const claudeResult = (error: string, text: string) => {
    const parser = claudeCode.parser();
    parser.parse(JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text }] }, error, is_api_error_message: true }));
    return parser.parse(JSON.stringify({ type: 'result', subtype: 'success', is_error: true, result: text, usage: {} })).find((e) => e.kind === 'result');
  };

  it('Claude Code: the error code of its synthetic answer says why', () => {
    expect(claudeResult('authentication_failed', 'Not logged in · Please run /login')).toEqual({ kind: 'result', ok: false, error: 'Not logged in · Please run /login', cause: 'not_signed_in' });
    expect(claudeResult('rate_limit', 'Rate limited')).toMatchObject({ cause: 'quota' });
    expect(claudeResult('billing_error', 'Credit balance is too low')).toMatchObject({ cause: 'quota' });
    expect(claudeResult('model_not_found', 'model: nope')).toMatchObject({ cause: 'model_not_found' });
    // Worth another turn: no cause.
    expect(claudeResult('overloaded', 'Overloaded')).toEqual({ kind: 'result', ok: false, error: 'Overloaded' });
  });

  it('Codex: the message of its failed turn says why', () => {
    const failed = (message: string) => codex.parser().parse(JSON.stringify({ type: 'turn.failed', error: { message } }))[0];
    expect(failed('Missing environment variable: `FAKE_OPENAI_KEY`.')).toMatchObject({ cause: 'not_signed_in' });
    expect(failed('Quota exceeded. Check your plan and billing details.')).toMatchObject({ cause: 'quota' });
    expect(failed('The model `nope` does not exist')).toMatchObject({ cause: 'model_not_found' });
    expect(failed('stream disconnected before completion: failed to lookup address information')).toEqual({ kind: 'result', ok: false, error: 'stream disconnected before completion: failed to lookup address information' });
  });

  it('the sign-in status commands: Claude Code JSON, Codex words', () => {
    expect(claudeCode.signedIn({ code: 1, stdout: '{\n  "loggedIn": false,\n  "authMethod": "none"\n}\n', stderr: '' })).toBe(false);
    expect(claudeCode.signedIn({ code: 0, stdout: '{\n  "loggedIn": true,\n  "authMethod": "api_key"\n}\n', stderr: '' })).toBe(true);
    expect(codex.signedIn({ code: 1, stdout: '', stderr: 'WARNING: proceeding, even though we could not create PATH aliases\nNot logged in\n' })).toBe(false);
    expect(codex.signedIn({ code: 0, stdout: 'API key configured - sk-abc12***56789\n', stderr: '' })).toBe(true);
  });
});
