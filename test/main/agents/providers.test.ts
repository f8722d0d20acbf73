// What each provider is started with (the permission the person chose, only our MCP server,
// resume), and how its stream becomes the activity log — lines as the real CLIs print them.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeCode } from '../../../src/main/agents/providers/claudeCode';
import { codex } from '../../../src/main/agents/providers/codex';
import { copilot } from '../../../src/main/agents/providers/copilot';
import { PROVIDERS } from '../../../src/main/agents/providers';
import { cantRunOf } from '../../../src/main/agents/cantRun';
import { signInWarning } from '../../../src/main/agents/signInCheck';
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
    dataDir: '/data',
    ...overrides,
  };
}

const after = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

describe('Claude Code', () => {
  it('gets only our helper as MCP server, our tools allowed, and the permission chosen', () => {
    const readOnly = claudeCode.launch(spec(), 'claude');
    expect(readOnly.args).toEqual(expect.arrayContaining(['-p', '--output-format', 'stream-json', '--strict-mcp-config']));
    // Only Read exists, allowed in the folder; no settings file is read; the data folder is never readable.
    expect(readOnly.args).toContain('--restricted');
    expect(after(readOnly.args, '--tools')).toBe('Read');
    expect(after(readOnly.args, '--allowedTools')).toBe('mcp__letagents__*,Read(//work/project/**)');
    // The data folder's own files are denied by name (its worktrees/ are agents' folders).
    const denied = after(readOnly.args, '--disallowedTools')!.split(',');
    for (const tool of ['Read', 'Edit', 'Write', 'NotebookEdit']) {
      expect(denied).toEqual(expect.arrayContaining([`${tool}(//data/agent-token)`, `${tool}(//data/letagents.db)`, `${tool}(//data/managed-agents/**)`]));
    }
    expect(denied.some((rule) => rule.includes('worktrees'))).toBe(false);
    expect(after(readOnly.args, '--permission-mode')).toBe('dontAsk');
    const config = JSON.parse(readOnly.files[0].contents);
    expect(Object.keys(config.mcpServers)).toEqual(['letagents']);
    expect(config.mcpServers.letagents).toEqual({ type: 'stdio', command: '/usr/bin/node', args: ['/opt/la/bin/letagents-desktop.js', 'mcp', '--data-dir', '/data'] });
    expect(after(readOnly.args, '--mcp-config')).toBe(readOnly.files[0].path);

    const edit = claudeCode.launch(spec({ permissions: 'edit', model: 'opus', resumeSessionId: 'abc' }), 'claude');
    expect(after(edit.args, '--tools')).toBe('Read,Edit,Write,NotebookEdit');
    expect(after(edit.args, '--allowedTools')).toBe(
      'mcp__letagents__*,Read(//work/project/**),Edit(//work/project/**),Write(//work/project/**),NotebookEdit(//work/project/**)',
    );
    expect(after(edit.args, '--model')).toBe('opus');
    expect(after(edit.args, '--resume')).toBe('abc');

    const own = claudeCode.launch(spec({ permissions: 'provider_default' }), 'claude');
    expect(own.args).not.toContain('--permission-mode');
    expect(own.args).not.toContain('--restricted');
    // The person's own user settings decide; the folder's project and local settings are never read.
    expect(after(own.args, '--setting-sources')).toBe('user');
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
  it("does not call a person's Deny in Needs you a use outside the agent's permissions (issue 35)", () => {
    const parser = claudeCode.parser();
    const events = [
      '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"touch denied"}}]}}',
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"The person denied this: Not in the project root, please."}]}}',
      '{"type":"result","subtype":"success","is_error":false,"usage":{},"permission_denials":[{"tool_name":"Bash","tool_use_id":"t1"},{"tool_name":"Write","tool_use_id":"t2"}]}',
    ].flatMap((line) => parser.parse(line));
    const notes = events.filter((e) => e.kind === 'note' || e.kind === 'tool_result');
    // The approvals service logs who denied it; the refused Write (never asked) is still said.
    expect(notes).toEqual([{ kind: 'note', text: 'Not allowed to use Write (outside the permissions chosen for this agent).' }]);
  });
});

describe('Codex', () => {
  it('runs in a CODEX_HOME of its own with only the person\'s sign-in and model settings, the sandbox per permission, and resumes by thread', () => {
    const s = spec({ provider: 'codex' });
    mkdirSync(join(s.home, '.codex'));
    writeFileSync(
      join(s.home, '.codex', 'config.toml'),
      [
        'model = "gpt-x"', 'model_provider = "corp"', 'notify = ["bash", "-c", "touch /tmp/pwned"]', 'sandbox_mode = "danger-full-access"',
        '[mcp_servers.github]', 'command = "gh-mcp"', '[hooks]', 'x = 1', '[projects."/work/project"]', 'trust_level = "trusted"',
        '[model_providers.corp]', 'base_url = "https://llm.corp/v1"', 'env_key = "CORP_KEY"', 'auth = { command = "fetch-token" }', '',
      ].join('\n'),
    );
    writeFileSync(join(s.home, '.codex', 'auth.json'), '{}');
    const launch = codex.launch(s, '/usr/bin/codex');
    const configs = launch.args.filter((_, i) => launch.args[i - 1] === '-c');
    expect(configs[0]).toBe('mcp_servers.letagents={command="/usr/bin/node",args=["/opt/la/bin/letagents-desktop.js","mcp","--data-dir","/data"],env={},default_tools_approval_mode="approve"}');
    // Read only: a profile that reads the folder, the basics and Codex itself; never the data folder.
    expect(configs.slice(1)).toEqual([
      'default_permissions="letagents_read"',
      'permissions.letagents_read.filesystem={":minimal"="read",":workspace_roots"={"."="read"},"/usr/bin"="read","/data"="none"}',
      'approval_policy="never"',
    ]);
    expect(launch.args.slice(0, 4)).toEqual(['exec', '--json', '--skip-git-repo-check', '--ignore-rules']);
    expect(launch.args.at(-1)).toBe('-');
    const home = join(s.agentDir, 'codex-home');
    expect(launch.env.CODEX_HOME).toBe(home);
    expect(launch.links).toEqual([{ path: join(home, 'auth.json'), target: join(s.home, '.codex', 'auth.json') }]);
    const config = launch.files.find((f) => f.path === join(home, 'config.toml'))!.contents;
    expect(config).toContain('model = "gpt-x"');
    expect(config).toContain('base_url = "https://llm.corp/v1"');
    for (const gone of ['notify', 'mcp_servers', 'hooks', 'projects', 'trust_level', 'fetch-token', 'sandbox_mode']) expect(config).not.toContain(gone);

    const resumed = codex.launch(spec({ provider: 'codex', permissions: 'edit', resumeSessionId: 'thread-1', model: 'gpt-x' }), 'codex');
    expect(resumed.args.slice(0, 2)).toEqual(['exec', 'resume']);
    expect(resumed.args.slice(-2)).toEqual(['thread-1', '-']);
    // May edit: reads the disk but the data folder's own files, writes in the folder only.
    const none = ['agent-token', 'letagents.db', 'letagents.db-wal', 'letagents.db-shm', 'managed-agents'].map((f) => `"/data/${f}"="none"`).join(',');
    expect(resumed.args).toEqual(
      expect.arrayContaining(['default_permissions="letagents_edit"', `permissions.letagents_edit.filesystem={":root"="read",":workspace_roots"={"."="write"},${none}}`, 'approval_policy="never"']),
    );
    expect(after(resumed.args, '-m')).toBe('gpt-x');
    const own = spec({ provider: 'codex', permissions: 'provider_default' });
    mkdirSync(join(own.home, '.codex'));
    writeFileSync(join(own.home, '.codex', 'config.toml'), 'sandbox_mode = "workspace-write"\nnotify = ["x"]\n');
    const ownLaunch = codex.launch(own, 'codex');
    expect(ownLaunch.args.join(' ')).not.toContain('sandbox_mode');
    // The person's own sandbox choice comes along for "what my provider settings allow"; notify never does.
    expect(ownLaunch.files[0].contents).toBe('sandbox_mode = "workspace-write"\n');
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
    // Codex 0.171 with its model out of reach (seen with a closed port): retries, not failures.
    const reconnecting = 'Reconnecting... waiting for network (Connection failed: error sending request)';
    expect(codex.parser().parse(JSON.stringify({ type: 'error', message: reconnecting }))).toEqual([{ kind: 'reconnecting', text: reconnecting }]);
    expect(codex.parser().parse('{"type":"error","message":"stream disconnected"}')).toEqual([{ kind: 'error', text: 'stream disconnected' }]);
  });
});

describe('GitHub Copilot CLI', () => {
  it('gets our helper as its only MCP server (GitHub\'s and the person\'s off), deny rules per permission, and resumes its session', () => {
    const base = spec({ provider: 'copilot' });
    mkdirSync(join(base.home, '.copilot'), { recursive: true });
    writeFileSync(join(base.home, '.copilot', 'mcp-config.json'), JSON.stringify({ mcpServers: { jira: { command: 'jira-mcp' }, letagents: { command: 'old' } } }));
    const readOnly = copilot.launch(base, 'copilot');
    expect(readOnly.args).toEqual(expect.arrayContaining(['--output-format', 'json', '--disable-builtin-mcps', '--no-ask-user', '--disallow-temp-dir']));
    expect(after(readOnly.args, '--disable-mcp-server')).toBe('jira');
    expect(readOnly.args.filter((a) => a === '--disable-mcp-server')).toHaveLength(1);
    expect(after(readOnly.args, '--allow-tool')).toBe('letagents');
    expect(readOnly.args.filter((_, i) => readOnly.args[i - 1] === '--deny-tool')).toEqual(['write', 'shell', 'url']);
    const config = readOnly.files.find((f) => f.path === after(readOnly.args, '--additional-mcp-config').slice(1))!;
    expect(JSON.parse(config.contents)).toEqual({ mcpServers: { letagents: { command: '/usr/bin/node', args: ['/opt/la/bin/letagents-desktop.js', 'mcp', '--data-dir', '/data'], type: 'local', tools: ['*'] } } });
    // The prompt goes to stdin: no -p with it on the command line.
    expect(readOnly.args).not.toContain('-p');

    const edit = copilot.launch({ ...base, permissions: 'edit', resumeSessionId: 'c7847299-577f-415e-b66f-5c1152c89de6' }, 'copilot');
    expect(edit.args.filter((_, i) => edit.args[i - 1] === '--allow-tool')).toEqual(['letagents', 'write']);
    expect(edit.args.filter((_, i) => edit.args[i - 1] === '--deny-tool')).toEqual(['shell', 'url']);
    expect(after(edit.args, '--resume')).toBe('c7847299-577f-415e-b66f-5c1152c89de6');
    const own = copilot.launch({ ...base, permissions: 'provider_default' }, 'copilot');
    expect(own.args).not.toContain('--deny-tool');
  });

  it('turns its JSON lines into tool calls, results, text and the session, and reads the session\'s tokens from its usage file', () => {
    const parser = copilot.parser();
    const events = [
      { type: 'assistant.message', data: { content: '', toolRequests: [{ toolCallId: 'call_1', name: 'letagents-send_message' }] } },
      { type: 'tool.execution_start', data: { toolCallId: 'call_1', toolName: 'letagents-send_message', arguments: { text: 'hi' } } },
      { type: 'tool.execution_complete', data: { toolCallId: 'call_1', success: true, result: { content: '{"success":true}' } } },
      { type: 'tool.execution_start', data: { toolCallId: 'call_2', toolName: 'create', arguments: { path: '/work/project/x' } } },
      { type: 'tool.execution_complete', data: { toolCallId: 'call_2', success: false, error: { message: 'Permission to run this tool was denied due to the following rules: `write`', code: 'denied' } } },
      { type: 'assistant.message', data: { content: 'Answered in the room.', toolRequests: [] } },
      { type: 'result', sessionId: 'c7847299-577f-415e-b66f-5c1152c89de6', exitCode: 0, usage: { premiumRequests: 0 } },
    ].flatMap((line) => parser.parse(JSON.stringify(line)));
    expect(events).toEqual([
      { kind: 'tool_call', tool: 'send_message', input: '{"text":"hi"}' },
      { kind: 'tool_result', tool: 'send_message', ok: true, text: '{"success":true}' },
      { kind: 'tool_call', tool: 'create', input: '{"path":"/work/project/x"}' },
      { kind: 'tool_result', tool: 'create', ok: false, text: 'Permission to run this tool was denied due to the following rules: `write`' },
      { kind: 'text', text: 'Answered in the room.' },
      { kind: 'session', sessionId: 'c7847299-577f-415e-b66f-5c1152c89de6' },
      { kind: 'result', ok: true, error: null },
    ]);
    const launch = copilot.launch(spec({ provider: 'copilot' }), 'copilot');
    const usagePath = after(launch.args, '--usage-output-file');
    // The runner empties the file before the run; nothing written: no usage.
    expect(launch.files.find((f) => f.path === usagePath)?.contents).toBe('');
    expect(launch.afterExit!()).toEqual([]);
    mkdirSync(join(usagePath, '..'), { recursive: true });
    writeFileSync(usagePath, JSON.stringify({ modelMetrics: { 'fake-model': { usage: { inputTokens: 400, outputTokens: 80, cacheReadTokens: 10, cacheWriteTokens: 0, reasoningTokens: 5 } } } }));
    expect(launch.afterExit!()).toEqual([{ kind: 'usage', inputTokens: 410, outputTokens: 85, tokensScope: 'session', costUsd: null, costScope: 'run' }]);
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
    expect(claudeResult('billing_error', 'Credit balance is too low')).toMatchObject({ cause: 'quota' });
    expect(claudeResult('model_not_found', 'model: nope')).toMatchObject({ cause: 'model_not_found' });
    // Worth another turn soon (issue 36): a short rate limit or an overload, tried again after a backoff.
    expect(claudeResult('rate_limit', 'Rate limited')).toEqual({ kind: 'result', ok: false, error: 'Rate limited', limit: { kind: 'rate_limited' } });
    expect(claudeResult('overloaded', 'Overloaded')).toEqual({ kind: 'result', ok: false, error: 'Overloaded', limit: { kind: 'rate_limited' } });
    // Worth another turn: no cause.
    expect(claudeResult('server_error', 'API Error: 500')).toEqual({ kind: 'result', ok: false, error: 'API Error: 500' });
  });

  // The lines below are what the real Claude Code 2.1.332 printed (stream-json, trimmed to the
  // fields read) against a fake server answering 429 with Anthropic's rate-limit headers, or 529.
  it("Claude Code: its own usage-limit error names the reset time; its 429 and 529 without one are short limits", () => {
    const parse = (lines: object[]) => {
      const parser = claudeCode.parser();
      return lines.flatMap((line) => parser.parse(JSON.stringify(line))).find((e) => e.kind === 'result');
    };
    const info = { status: 'rejected', resetsAt: 1796537974, rateLimitType: 'five_hour', isUsingOverage: false };
    expect(parse([
      { type: 'rate_limit_event', rate_limit_info: info, uuid: 'f00a9c4d-0ec1-4fdb-9359-27a824ef58f1', session_id: 'bd4d1af5-b4d1-429f-8614-3bf8878b0c50' },
      {
        type: 'assistant', message: { model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: "You've hit your 5-hour limit · resets 6:19am (UTC)" }] },
        error: 'rate_limit', is_api_error_message: true, api_error_status: 429, api_error: 'usage_limit_reached', api_error_params: { rate_limit_info: info }, api_error_type: 'rate_limit_error',
      },
      { type: 'result', subtype: 'success', is_error: true, api_error_status: 429, api_error_type: 'rate_limit_error', api_error: 'usage_limit_reached', terminal_reason: 'api_error', result: "You've hit your 5-hour limit · resets 6:19am (UTC)", usage: {} },
    ])).toEqual({ kind: 'result', ok: false, error: "You've hit your 5-hour limit · resets 6:19am (UTC)", limit: { kind: 'usage_limit', resetsAt: '2026-12-06T06:19:34.000Z' } });
    const apiKey429 = "API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later.";
    expect(parse([
      { type: 'assistant', message: { content: [{ type: 'text', text: apiKey429 }] }, error: 'rate_limit', is_api_error_message: true, api_error_status: 429, api_error_type: 'rate_limit_error' },
      { type: 'result', subtype: 'success', is_error: true, api_error_status: 429, api_error_type: 'rate_limit_error', result: apiKey429, usage: {} },
    ])).toEqual({ kind: 'result', ok: false, error: apiKey429, limit: { kind: 'rate_limited' } });
    const overloaded = 'API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.';
    expect(parse([
      { type: 'assistant', message: { content: [{ type: 'text', text: overloaded }] }, error: 'server_error', is_api_error_message: true, api_error_status: 529, api_error_type: 'overloaded_error' },
      { type: 'result', subtype: 'success', is_error: true, api_error_status: 529, api_error_type: 'overloaded_error', result: overloaded, usage: {} },
    ])).toEqual({ kind: 'result', ok: false, error: overloaded, limit: { kind: 'rate_limited' } });
    // A usage limit without a reset time: only the person can tell when to try again.
    expect(parse([
      { type: 'assistant', message: { content: [{ type: 'text', text: 'Usage limit reached' }] }, error: 'rate_limit', api_error: 'usage_limit_reached' },
      { type: 'result', subtype: 'success', is_error: true, api_error: 'usage_limit_reached', result: 'Usage limit reached', usage: {} },
    ])).toMatchObject({ cause: 'quota' });
  });

  it('Codex: the message of its failed turn says why', () => {
    const failed = (message: string) => codex.parser().parse(JSON.stringify({ type: 'turn.failed', error: { message } }))[0];
    expect(failed('Missing environment variable: `FAKE_OPENAI_KEY`.')).toMatchObject({ cause: 'not_signed_in' });
    expect(failed('Quota exceeded. Check your plan and billing details.')).toMatchObject({ cause: 'quota' });
    expect(failed('The model `nope` does not exist')).toMatchObject({ cause: 'model_not_found' });
    expect(failed('stream disconnected before completion: failed to lookup address information')).toEqual({ kind: 'result', ok: false, error: 'stream disconnected before completion: failed to lookup address information' });
  });

  it('GitHub Copilot CLI: not signed in is all it prints, on stderr', () => {
    const stderr = "Error: No authentication information found.\n\nCopilot can be authenticated with GitHub using an OAuth Token or a Fine-Grained Personal Access Token.\n\nTo authenticate, you can use any of the following methods:\n  • Start 'copilot' and run the '/login' command";
    expect(copilot.causeOfExit!(stderr)).toBe('not_signed_in');
    expect(copilot.causeOfExit!('Error: connect ECONNREFUSED 127.0.0.1:9')).toBeUndefined();
  });

  it('the sign-in status commands: Claude Code JSON, Codex words', () => {
    expect(claudeCode.signInStatus!.signedIn({ code: 1, stdout: '{\n  "loggedIn": false,\n  "authMethod": "none"\n}\n', stderr: '' })).toBe(false);
    expect(claudeCode.signInStatus!.signedIn({ code: 0, stdout: '{\n  "loggedIn": true,\n  "authMethod": "api_key"\n}\n', stderr: '' })).toBe(true);
    expect(codex.signInStatus!.signedIn({ code: 1, stdout: '', stderr: 'WARNING: proceeding, even though we could not create PATH aliases\nNot logged in\n' })).toBe(false);
    expect(codex.signInStatus!.signedIn({ code: 0, stdout: 'API key configured - sk-abc12***56789\n', stderr: '' })).toBe(true);
  });

  it('asks only a CLI with a status command whether it is signed in; the fix names how each signs in', async () => {
    const home = mkdtempSync(join(tmpdir(), 'la-provider-'));
    dirs.push(home);
    // A CLI that says it is not signed in, and leaves a mark when it is run at all.
    const cli = join(home, 'cli');
    writeFileSync(cli, `#!/bin/sh\ntouch "${cli}.ran"\necho 'Not logged in'\nexit 1\n`);
    chmodSync(cli, 0o755);
    const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, 'codex') };
    for (const id of ['gemini', 'opencode', 'copilot'] as const) expect(await signInWarning(PROVIDERS[id], cli, env, home)).toBeNull();
    expect(existsSync(`${cli}.ran`)).toBe(false);
    expect(await signInWarning(PROVIDERS.codex, cli, env, home)).toContain(`Run \`${cli} login\` in a terminal`);
    expect(existsSync(`${cli}.ran`)).toBe(true);

    const signInFix = (id: keyof typeof PROVIDERS) => cantRunOf(PROVIDERS[id], 'not_signed_in', { command: `/bin/${id}`, model: null, detail: '' }).fix;
    expect(signInFix('gemini')).toMatch(/^Sign in: run `\/bin\/gemini` in a terminal/);
    expect(signInFix('opencode')).toMatch(/^Sign in: run `\/bin\/opencode auth login` in a terminal/);
    expect(signInFix('copilot')).toMatch(/^Sign in: run `\/bin\/copilot login` in a terminal/);
    expect(signInFix('claude_code')).toMatch(/^Sign in: run `\/bin\/claude_code auth login` in a terminal/);
  });
});
