// The agent's repository through a real helper (mcp-tools.md §2.2, §3): check_repo,
// initialize_repo, join_room without a name, and auto-join from .letagents.json, the git
// origin and the saved current room, on real temporary git repositories.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, connectHttp, tempDir, toolJson, type ServeHandle } from '../../support';
import { connectAgent, expectSoft, expectUnchanged, makeRepo, startApp, type Agent } from './harness';
import { placeRows, type PlacedApp } from '../../support/place';

const CHECK_REPO_KEYS = [
  'config_contents', 'config_file', 'configured_active_room_from_context', 'configured_room_from_file', 'current_room', 'current_room_scope', 'cwd',
  'derived_branch_room_from_git', 'derived_repo_room_from_git', 'derived_room_from_git', 'detected_room_from_context', 'git_current_branch',
  'git_default_branch', 'git_repo_root', 'join_hint', 'repo_context_status', 'warning',
];

let serve: ServeHandle & PlacedApp;
const agents: Agent[] = [];

/** An app's first heartbeat as hub.ts writes it (its app_hosts row), on its 10 s timer: landing now. */
async function heartbeatLands(app: PlacedApp): Promise<void> {
  const sql = 'INSERT INTO app_hosts (host_id, host_label, heard_at) VALUES (?, ?, ?)';
  const row = [`host-${Date.now()}`, 'another-machine', new Date().toISOString()];
  if (app.teamUrl) {
    await placeRows(app, sql, ...row);
    return;
  }
  const db = new Database(join(app.dataDir, 'letagents.db'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(sql).run(...row);
  } finally {
    db.close();
  }
}

async function agentIn(cwd: string, clientName = 'claude-code'): Promise<Agent> {
  const agent = await connectAgent(serve, { cwd, clientName });
  agents.push(agent);
  return agent;
}

beforeAll(async () => {
  serve = await startApp();
});

afterAll(async () => {
  for (const agent of agents) await agent.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

describe('check_repo and join_room in a git repository', () => {
  it('inspects the repo, joins its room without a name, and a later agent there is auto-joined by the origin', async () => {
    const repo = makeRepo('git@github.com:Acme/Widget.git');
    const ada = await agentIn(repo);
    // The repo room does not exist yet, so auto-join leaves the agent outside any room.
    expect((await ada.call('get_current_room')).connected).toBe(false);
    const before = await ada.call('check_repo');
    expect(Object.keys(before).sort()).toEqual(CHECK_REPO_KEYS);
    expect(before).toEqual({
      cwd: repo, repo_context_status: 'git_repo_detected', git_repo_root: repo, config_file: null, config_contents: null,
      configured_room_from_file: null, configured_active_room_from_context: null, derived_room_from_git: 'github.com/acme/widget',
      derived_repo_room_from_git: 'github.com/acme/widget', derived_branch_room_from_git: null, git_current_branch: 'main', git_default_branch: 'main',
      detected_room_from_context: 'github.com/acme/widget', current_room: null, current_room_scope: 'none', warning: null,
      join_hint: expect.stringContaining('github.com/acme/widget'),
    });

    const joined = await ada.call('join_room');
    expect(joined).toMatchObject({ room_id: 'github.com/acme/widget', kind: 'repo', joined_via: 'join_room', created: true });
    const after = await ada.call('check_repo');
    expect(after).toMatchObject({ current_room: 'github.com/acme/widget', current_room_scope: 'matches_detected_repo_context', warning: null, join_hint: null });

    const bob = await agentIn(join(repo), 'codex');
    expect(await bob.call('get_current_room')).toMatchObject({ connected: true, room_id: 'github.com/acme/widget', joined_via: 'git-remote', git_room: true });
  });

  it('inspects another directory through cwd and warns that the current room is not its room', async () => {
    const ada = await agentIn(tempDir('la-plain-'));
    await ada.call('join_room', { name: 'somewhere-else' });
    const other = makeRepo('https://github.com/Acme/Other.git');
    const report = await ada.call('check_repo', { cwd: other });
    expect(report).toMatchObject({
      cwd: other, detected_room_from_context: 'github.com/acme/other', current_room: 'somewhere-else',
      current_room_scope: 'existing_joined_session_not_derived_from_inspected_cwd',
    });
    expect(report.warning).toContain('github.com/acme/other');
    const plain = await ada.call('check_repo', { cwd: tempDir('la-plain-') });
    expect(plain).toMatchObject({ repo_context_status: 'not_inside_git_repo', git_repo_root: null, derived_repo_room_from_git: null, git_current_branch: null });
  });
});

describe('initialize_repo', () => {
  it('writes .letagents.json at the git root with the origin room and joins it via config', async () => {
    const repo = makeRepo('git@github.com:Acme/Tool.git');
    const sub = join(repo, 'packages', 'core');
    mkdirSync(sub, { recursive: true });
    const ada = await agentIn(sub);
    const result = await ada.call('initialize_repo');
    const path = join(repo, '.letagents.json');
    expect(result).toEqual({ success: true, created: path, room_id: 'github.com/acme/tool', code: null, joined: true, hint: expect.any(String) });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ room: 'github.com/acme/tool' });
    expect(await ada.call('get_current_room')).toMatchObject({ room_id: 'github.com/acme/tool', joined_via: 'config', kind: 'repo' });

    // R8: the file exists at the git root, seen from the root and from the subdirectory.
    await expectUnchanged(serve, async () => {
      for (const cwd of [sub, repo]) {
        expectSoft(await ada.call('initialize_repo', { cwd, room: 'another' }), '.letagents.json already exists', { path, hint: expect.any(String) });
      }
    });
  });

  it('uses a custom room name when the repo has no remote', async () => {
    const repo = makeRepo(null);
    const ada = await agentIn(repo);
    const result = await ada.call('initialize_repo', { room: 'widget team' });
    expect(result).toMatchObject({ success: true, room_id: 'widget team', joined: true });
    expect(JSON.parse(readFileSync(join(repo, '.letagents.json'), 'utf8'))).toEqual({ room: 'widget team' });
  });

  it('refuses softly outside a repository (R9) and without a remote or name (R10), writing nothing', async () => {
    const plain = tempDir('la-plain-');
    const bare = makeRepo(null);
    const ada = await agentIn(plain);
    await expectUnchanged(serve, async () => {
      expectSoft(await ada.call('initialize_repo'), 'Not inside a git repository');
      expectSoft(await ada.call('initialize_repo', { cwd: bare }), 'Cannot derive room name: no git remote found and no custom room name provided');
    });
    expect(existsSync(join(plain, '.letagents.json'))).toBe(false);
    expect(existsSync(join(bare, '.letagents.json'))).toBe(false);
  });

  it("refuses softly while an app's first heartbeat lands in the rooms' database (in a team's, it made R9/R10 flaky)", async () => {
    const ada = await agentIn(tempDir('la-plain-'));
    await expectUnchanged(serve, async () => {
      expectSoft(await ada.call('initialize_repo'), 'Not inside a git repository');
      await heartbeatLands(serve);
    });
  });

  it('answers R11 for check_repo and initialize_repo on a connection without a working directory', async () => {
    const http = await connectHttp(serve.mcpUrl, serve.token);
    const phrase = 'No cwd provided and this connection has no working directory.';
    await expectUnchanged(serve, async () => {
      expect(toolJson(await http.callTool({ name: 'check_repo', arguments: {} }))).toMatchObject({ success: false, error: phrase });
      expect(toolJson(await http.callTool({ name: 'initialize_repo', arguments: {} }))).toMatchObject({ success: false, error: phrase });
    });
    await http.close();
  });
});

describe('auto-join', () => {
  it('joins (creating) the .letagents.json room first, even when the origin room exists', async () => {
    const repo = makeRepo('git@github.com:Acme/Widget.git', { room: 'configured-room' });
    const ada = await agentIn(repo);
    expect(await ada.call('get_current_room')).toMatchObject({ room_id: 'configured-room', joined_via: 'config', kind: 'named' });
    const report = await ada.call('check_repo');
    expect(report).toMatchObject({
      config_file: join(repo, '.letagents.json'), config_contents: { room: 'configured-room' },
      configured_room_from_file: 'configured-room', detected_room_from_context: 'configured-room', current_room_scope: 'matches_detected_repo_context',
    });
  });

  it('ignores an unparsable .letagents.json and falls back to the existing origin room', async () => {
    const setup = await agentIn(tempDir('la-plain-'));
    await setup.call('join_room', { name: 'github.com/acme/widget' });
    const repo = makeRepo('git@github.com:Acme/Widget.git', '{ not json');
    const ada = await agentIn(repo);
    expect(await ada.call('get_current_room')).toMatchObject({ room_id: 'github.com/acme/widget', joined_via: 'git-remote' });
    expect(await ada.call('check_repo')).toMatchObject({ config_contents: '<parse error>', configured_room_from_file: null });
  });

  it('refuses a symlinked .letagents.json: no room from it and nothing of the file it points at (issue 15 item 8)', async () => {
    const credentials = join(tempDir('la-home-'), 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ room: 'looks-like-a-room', aws_secret_access_key: 'AKIA-SECRET-1234' }));
    const repo = makeRepo('git@github.com:Acme/Widget.git');
    symlinkSync(credentials, join(repo, '.letagents.json'));
    const ada = await agentIn(repo);
    const report = await ada.call('check_repo');
    expect(report).toMatchObject({ config_file: join(repo, '.letagents.json'), config_contents: '<symlink refused>', configured_room_from_file: null, detected_room_from_context: 'github.com/acme/widget' });
    expect(JSON.stringify(report)).not.toContain('AKIA');
    expect(JSON.stringify(await ada.call('get_onboarding_status'))).not.toContain('looks-like-a-room');
  });

  it('falls back to the client\'s saved current room', async () => {
    const cwd = tempDir('la-saved-');
    const first = await connectAgent(serve, { cwd, clientName: 'gemini-cli' });
    await first.call('join_room', { name: 'saved-room' });
    await first.client.close();
    const again = await agentIn(cwd, 'gemini-cli');
    expect(await again.call('get_current_room')).toMatchObject({ connected: true, room_id: 'saved-room', joined_via: 'join_room' });
  });
});
