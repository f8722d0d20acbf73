// agents.* through the real dispatcher: adding a managed agent registers its worker in the
// room (the roster shows it); bad settings get a clear error and change nothing.
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../../support';
import { CLI_BIN } from '../agents/managedApp';
import { setUpApi } from './harness';
import { PROVIDER_LIST } from '../../../src/main/agents/providers';

const folder = () => mkdtempSync(join(tmpdir(), 'la-agents-api-'));

describe('agents.*', () => {
  it('lists every provider of the registry with what a person may let it do, and whether each CLI is installed', async () => {
    const api = await setUpApi({ env: { PATH: CLI_BIN } });
    const listed = await api.call('agents.providers', {});
    expect(listed.map((p) => [p.id, p.name])).toEqual(PROVIDER_LIST.map((p) => [p.id, p.name]));
    // The pinned CLIs of this repository are found on that PATH.
    const pinned = { claude_code: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI', opencode: 'OpenCode', copilot: 'GitHub Copilot CLI' };
    for (const [id, name] of Object.entries(pinned)) expect(listed.find((p) => p.id === id), id).toMatchObject({ name, installed: true });
    expect(listed.find((p) => p.id === 'claude_code')).toMatchObject({ permissions: ['read_only', 'edit', 'ask', 'provider_default'], permissionsNote: null });
    expect(listed.find((p) => p.id === 'codex')).toMatchObject({ permissions: ['read_only', 'edit', 'provider_default'], permissionsNote: expect.stringMatching(/"Ask me" is not offered/) });
    const bare = await setUpApi();
    expect((await bare.call('agents.providers', {})).filter((p) => p.installed)).toEqual([]);
  });

  it("finds the person's own CLIs, never the copies pinned in LetAgents' checkout (its node_modules/.bin, first on PATH under npm scripts)", async () => {
    const checkoutBin = join(repoRoot, 'node_modules', '.bin');
    const onlyCheckout = await setUpApi({ env: { PATH: checkoutBin } });
    expect((await onlyCheckout.call('agents.providers', {})).filter((p) => p.installed)).toEqual([]);
    expect((await onlyCheckout.call('setup.status', {})).tools.filter((t) => t.detected)).toEqual([]);

    // The person's own Codex, later on PATH, is the one listed, and the sign-in fix names it.
    const own = tempDir('la-own-bin-');
    symlinkSync(join(CLI_BIN, 'codex'), join(own, 'codex'));
    const api = await setUpApi({ env: { PATH: `${checkoutBin}:${own}:${process.env.PATH ?? ''}`, CODEX_HOME: tempDir('la-codex-home-') } });
    const codex = (await api.call('agents.providers', {})).find((p) => p.id === 'codex')!;
    expect(codex).toMatchObject({ installed: true, path: join(own, 'codex') });
    expect(codex.warning).toContain(`Run \`${join(own, 'codex')} login\` in a terminal`);
    expect((await api.call('setup.status', {})).tools.filter((t) => t.detected).map((t) => t.tool)).toEqual(['codex']);
  });

  it('adds a managed agent: its worker joins the room under its name, idle until something needs it', async () => {
    const api = await setUpApi({ env: { PATH: CLI_BIN } });
    await api.room('docs');
    const added = await api.call('agents.add', {
      provider: 'codex', folder: folder(), roomId: 'docs', name: 'Juniper', permissions: 'edit', instructions: 'Keep the docs current.', turnsPerHour: 5, dailyTokenCap: 200_000,
    });
    expect(added).toMatchObject({
      name: 'Juniper', provider: 'codex', providerName: 'Codex', roomId: 'docs', permissions: 'edit', instructions: 'Keep the docs current.',
      turnsPerHour: 5, dailyTokenCap: 200_000, desiredState: 'running', state: 'idle', lastTurn: null, usage: { turnsLastHour: 0, tokensToday: 0, costTodayUsd: null },
    });
    const roster = await api.call('workers.list', { roomId: 'docs' });
    expect(roster.map((a) => [a.name, a.ide, a.sessionId])).toEqual([['Juniper', 'Codex', added.sessionId]]);
    const timeline = await api.call('messages.timeline', { roomId: 'docs' });
    expect(timeline.messages.map((m) => m.text)).toEqual(['Juniper joined the room.']);
    expect(await api.call('agents.list', {})).toEqual([added]);
    expect((await api.call('agents.activity', { agentId: added.agentId })).turns).toEqual([]);
  });

  it('refuses bad settings with a clear error and changes nothing', async () => {
    const api = await setUpApi({ env: { PATH: CLI_BIN } });
    await api.room('docs');
    await api.room('old');
    await api.call('rooms.archive', { roomId: 'old', archived: true });
    await api.call('agents.add', { provider: 'claude_code', folder: folder(), roomId: 'docs', name: 'Cedar', permissions: 'read_only' });
    const before = api.snapshot();
    const base = { provider: 'claude_code', folder: folder(), roomId: 'docs', name: 'Juniper', permissions: 'read_only' };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ folder: 'relative/path' }, /must be a full path/],
      [{ folder: join(folder(), 'missing') }, /does not exist/],
      [{ roomId: 'nowhere' }, /^Room "nowhere" not found \(looked in: this computer\)\.$/],
      // A typo names the nearest rooms, as the MCP tools do (issue 35).
      [{ roomId: 'dosc' }, /^Room "dosc" not found\. Did you mean "docs"\?$/],
      [{ roomId: 'docs', place: 'acme' }, /"acme" is not a place/],
      [{ roomId: 'old' }, /archived/],
      [{ name: 'cedar' }, /already uses that name/],
      [{ name: '   ' }, /Give the agent a name/],
      [{ provider: 'cursor' }, /"cursor" is not an agent CLI this app runs: use one of claude_code, codex, /],
      [{ permissions: 'everything' }, /permissions/],
      [{ turnsPerHour: 0 }, /at least 1/],
      [{ dailyTokenCap: 10 }, /at least 1,000/],
      [{ model: 'gpt; rm -rf /' }, /model name/],
    ];
    for (const [change, message] of cases) {
      const error = await api.fail('agents.add', { ...base, ...change });
      expect(error.message, JSON.stringify(change)).toMatch(message);
    }
    const noCli = await setUpApi();
    await noCli.room('docs');
    expect((await noCli.fail('agents.add', { ...base, folder: folder() })).message).toMatch(/Claude Code \(claude\) was not found on PATH/);
    expect(api.snapshot()).toBe(before);
    expect((await api.fail('agents.pause', { agentId: 'agent_missing' })).code).toBe('not_found');
  });

  it('pauses, resumes and removes; removing ends its session in the room', async () => {
    const api = await setUpApi({ env: { PATH: CLI_BIN } });
    await api.room('docs');
    const added = await api.call('agents.add', { provider: 'claude_code', folder: folder(), roomId: 'docs', name: 'Juniper', permissions: 'provider_default' });
    expect(await api.call('agents.pause', { agentId: added.agentId })).toMatchObject({ desiredState: 'paused', state: 'paused' });
    expect(await api.call('agents.resume', { agentId: added.agentId })).toMatchObject({ desiredState: 'running', state: 'idle' });
    expect(await api.call('agents.remove', { agentId: added.agentId })).toEqual({ removed: true });
    expect(await api.call('agents.list', {})).toEqual([]);
    expect((await api.call('workers.list', { roomId: 'docs' }))[0].ended).toBe(true);
  });
});
