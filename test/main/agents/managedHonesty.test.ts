// Managed agents left running (issue 25), with the REAL Claude Code and Codex CLIs against
// fake model servers (the model is the only fake): a message handed to a turn counts as
// delivered, other agents' chatter costs them no turns, mentions while paused wait for
// Resume, a CLI that cannot run says so (and why, and how to fix it) instead of looking idle,
// and a name must be one a mention reaches.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned, tempDir } from '../../support';
import { gate, replyInRoom, say } from '../../support/fakeModels';
import { joinAgent, type Agent } from '../../e2e/lib/agents';
import { CLI_BIN, startManagedApp, waitUntil, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
const agents: Agent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'honest-room';

async function addAgent(a: ManagedApp, provider: 'claude_code' | 'codex', name: string) {
  await a.room(ROOM);
  return a.call('agents.add', { provider, folder: a.folder, roomId: ROOM, name, permissions: 'read_only' });
}

const listed = async (a: ManagedApp, agentId: string) => (await a.call('agents.list', {})).find((x) => x.agentId === agentId)!;
const cantRunItems = async (a: ManagedApp) => (await a.call('needsYou.list', {})).items.filter((i) => i.reason === 'agent_cant_run');

describe.each(['claude_code', 'codex'] as const)('a managed %s agent left running (fake model)', (provider) => {
  it('a mention handed to its turn is delivered when the turn starts: receipts say so and no "not picked up" item comes', async () => {
    app = await startManagedApp({ provider });
    const juniper = await addAgent(app, provider, 'Juniper');
    await app.call('settings.set', { delivery: { unansweredAfterSeconds: 1 } });
    const slow = gate(say('Looked at it.'));
    app.model.script.push('Juniper', slow.step);
    const mention = await app.call('messages.send', { roomId: ROOM, text: '@Juniper is the build green?' });
    await waitUntil(() => app!.model.script.requestsFor('Juniper').length === 1, 30_000, 'the turn to reach the model');
    await waitUntil(
      async () => (await app!.call('delivery.receipts', { roomId: ROOM, numbers: [mention.number] })).receipts[0]?.seen.some((s) => s.name === 'Juniper') ?? false,
      10_000,
      'the receipt of the mention for Juniper',
    );
    const [receipt] = (await app.call('delivery.receipts', { roomId: ROOM, numbers: [mention.number] })).receipts;
    expect(receipt.waiting.map((w) => w.name)).not.toContain('Juniper');
    // Past the "not picked up" limit, while the turn still runs: nothing to chase.
    await new Promise((r) => setTimeout(r, 2_500));
    const items = (await app.call('needsYou.list', {})).items;
    expect(items.filter((i) => i.reason === 'unanswered').map((i) => i.title)).toEqual([]);
    slow.open();
    expect((await app.turnEnded(juniper.agentId, 1)).status).toBe('done');
  });

  it('mentions while paused wait ("N messages waiting") and become its next turn on Resume', async () => {
    app = await startManagedApp({ provider });
    const juniper = await addAgent(app, provider, 'Juniper');
    await app.call('agents.pause', { agentId: juniper.agentId });
    for (const text of ['@Juniper look at the parser', '@Juniper and the lexer', '@Juniper then the docs']) await app.call('messages.send', { roomId: ROOM, text });
    await waitUntil(async () => (await listed(app!, juniper.agentId)).waitingMessages === 3, 10_000, 'three messages waiting');
    expect((await listed(app, juniper.agentId)).state).toBe('paused');
    expect(app.model.script.requestsFor('Juniper')).toEqual([]);
    expect(await app.turns(juniper.agentId)).toEqual([]);

    app.model.script.push('Juniper', ...replyInRoom('Parser, lexer and docs: done.'));
    await app.call('agents.resume', { agentId: juniper.agentId });
    const turn = await app.turnEnded(juniper.agentId, 1);
    expect(turn.status).toBe('done');
    for (const text of ['look at the parser', 'and the lexer', 'then the docs']) expect(turn.triggerText).toContain(text);
    expect((await listed(app, juniper.agentId)).waitingMessages).toBe(0);
  });
});

describe('chatter between other agents (fake model)', () => {
  it('costs no managed agent a turn: two agents chatting in a room with two managed agents (four members)', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    const juniper = await addAgent(app, 'claude_code', 'Juniper');
    const cedar = await addAgent(app, 'claude_code', 'Cedar');
    const ash = await joinAgent(app.dataDir, { room: ROOM, name: 'Ash' });
    const birch = await joinAgent(app.dataDir, { room: ROOM, name: 'Birch' });
    agents.push(ash, birch);
    for (let i = 0; i < 10; i++) {
      await ash.call('send_message', { text: `Build ${i} is green on my side.` });
      await birch.call('send_message', { text: `Same here for build ${i}.` });
    }
    // A mention after the chatter: Juniper's first turn is for it alone.
    app.model.script.push('Juniper', say('Noted.'));
    await ash.call('send_message', { text: '@Juniper can you check the release notes?' });
    const turn = await app.turnEnded(juniper.agentId, 1);
    expect(turn.triggerText).toContain('can you check the release notes?');
    expect(turn.triggerText).not.toContain('is green on my side');
    expect(await app.turns(cedar.agentId)).toEqual([]);
    expect(app.model.script.requestsFor('Cedar')).toEqual([]);
  });
});

// Real CLIs, two turns a test (Codex's refused turn took 14 s of the default 30 in a green CI run):
// the test's time matches what turnEnded waits for one turn (60 s), as in moreProviders.
describe('a CLI that cannot run (real CLIs, fake model)', { timeout: 120_000 }, () => {
  it('Claude Code not signed in: "Can\'t run", one Needs-you item with the fix, no retries, mentions kept; Resume closes the item and tries again', async () => {
    app = await startManagedApp({
      provider: 'claude_code',
      env: (env) => {
        const { ANTHROPIC_API_KEY: _dropped, ...rest } = env;
        return rest;
      },
    });
    const claudePath = `${CLI_BIN}/claude`;
    // Up front: the Add dialog and `agent add` warn, naming the CLI and whose PATH.
    const [claude] = (await app.call('agents.providers', {})).filter((p) => p.id === 'claude_code');
    expect(claude.path).toBe(claudePath);
    expect(claude.warning).toContain(`Claude Code at ${claudePath} (found on the app's PATH) is not signed in`);
    expect(claude.warning).toContain(`\`${claudePath} auth login\``);

    const juniper = await addAgent(app, 'claude_code', 'Juniper');
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper first question' });
    const failed = await app.turnEnded(juniper.agentId, 1);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain('Not logged in');
    await waitUntil(async () => (await listed(app!, juniper.agentId)).state === 'cant_run', 10_000, "the Can't run state");
    const agent = await listed(app, juniper.agentId);
    expect(agent.cantRun?.reason).toBe('Claude Code is not signed in');
    expect(agent.cantRun?.fix).toContain(`Sign in: run \`${claudePath} auth login\` in a terminal`);
    const [item, ...more] = await cantRunItems(app);
    expect(more).toEqual([]);
    expect(item.title).toBe("Juniper can't run: Claude Code is not signed in");
    expect(item.body).toContain(`${claudePath} auth login`);
    expect(item.alert?.actions).toEqual(['resume_agent']);
    // Receipts and the roster no longer call it reachable: it takes no turn until resumed.
    expect((await app.call('workers.list', { roomId: ROOM })).find((w) => w.name === 'Juniper')?.reachability).toBe('managed_paused');

    // No retries: another mention waits, and Run now says why not.
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper second question' });
    await waitUntil(async () => (await listed(app!, juniper.agentId)).waitingMessages === 2, 10_000, 'both mentions waiting');
    expect(await app.fail('agents.runNow', { agentId: juniper.agentId })).toContain("Juniper can't run: Claude Code is not signed in.");
    expect((await app.turns(juniper.agentId)).length).toBe(1);
    expect(await cantRunItems(app)).toHaveLength(1);

    await app.call('agents.resume', { agentId: juniper.agentId });
    expect((await cantRunItems(app)).map((i) => i.ref.number)).not.toContain(item.ref.number);
    const retried = await app.turnEnded(juniper.agentId, 2);
    expect(retried.triggerText).toContain('first question');
    expect(retried.triggerText).toContain('second question');
  });

  it('Codex refused by its model provider (401): "Can\'t run" with `codex login`; signed in again, Resume runs what waited', async () => {
    app = await startManagedApp({ provider: 'codex' });
    // Set up with another model provider (as the fake is), Codex's own sign-in does not apply.
    expect((await app.call('agents.providers', {})).find((p) => p.id === 'codex')?.warning).toBeNull();
    const juniper = await addAgent(app, 'codex', 'Juniper');
    app.model.script.refusal = { status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } } };
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper what changed?' });
    expect((await app.turnEnded(juniper.agentId, 1)).status).toBe('failed');
    await waitUntil(async () => (await listed(app!, juniper.agentId)).state === 'cant_run', 10_000, "the Can't run state");
    const agent = await listed(app, juniper.agentId);
    expect(agent.cantRun?.reason).toBe('Codex is not signed in');
    expect(agent.cantRun?.fix).toContain(`\`${CLI_BIN}/codex login\``);
    expect(await cantRunItems(app)).toHaveLength(1);
    expect(agent.waitingMessages).toBe(1);

    app.model.script.refusal = null;
    app.model.script.push('Juniper', ...replyInRoom('Two files changed.'));
    await app.call('agents.resume', { agentId: juniper.agentId });
    expect(await cantRunItems(app)).toEqual([]);
    const turn = await app.turnEnded(juniper.agentId, 2);
    expect(turn.status).toBe('done');
    expect(turn.triggerText).toContain('what changed?');
    expect((await listed(app, juniper.agentId)).state).toBe('idle');
  });

  it('Codex with its own sign-in missing: `codex login status` says so up front, naming the CLI', async () => {
    const codexHome = tempDir('la-codex-home-');
    app = await startManagedApp({ provider: 'codex', env: (env) => ({ ...env, CODEX_HOME: codexHome }) });
    const codex = (await app.call('agents.providers', {})).find((p) => p.id === 'codex')!;
    expect(codex.warning).toContain(`Codex at ${CLI_BIN}/codex (found on the app's PATH) is not signed in`);
    expect(codex.warning).toContain(`\`${CLI_BIN}/codex login\``);

    // Its turn does not sit "reconnecting" (Codex sends requests without a key and retries for as
    // long as it runs): the same check before the turn gives "Can't run" at once, naming the fix.
    const juniper = await addAgent(app, 'codex', 'Juniper');
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper what changed?' });
    const turn = await app.turnEnded(juniper.agentId, 1);
    expect(turn.status).toBe('failed');
    expect(turn.error).toBe(`\`${CLI_BIN}/codex login status\` said: Not logged in (see \`${CLI_BIN}/codex login\`)`);
    await waitUntil(async () => (await listed(app!, juniper.agentId)).state === 'cant_run', 10_000, "the Can't run state");
    const agent = await listed(app, juniper.agentId);
    expect(agent.cantRun?.reason).toBe('Codex is not signed in');
    expect(agent.cantRun?.fix).toContain(`\`${CLI_BIN}/codex login\``);
    expect(agent.waitingMessages).toBe(1);
    expect(await cantRunItems(app)).toHaveLength(1);
  });

  it('Codex whose model server is down (fake, closed): a turn that only reconnects is stopped after the reconnect limit, saying why', async () => {
    app = await startManagedApp({ provider: 'codex', managedTurns: { reconnectLimitMs: 3_000 } });
    const juniper = await addAgent(app, 'codex', 'Juniper');
    await app.model.close();
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper what changed?' });
    const turn = await app.turnEnded(juniper.agentId, 1);
    expect(turn.status).toBe('failed');
    expect(turn.error).toMatch(/^Codex could not reach its model for 3 s and was stopped\. It said: Reconnecting\.\.\./);
    expect(turn.entries.some((e) => e.kind === 'note' && e.text.startsWith('Reconnecting...'))).toBe(true);
    // Codex alone goes on retrying (every 5–45 s, for minutes): the watchdog ended its process.
    expect((await listed(app, juniper.agentId)).state).toBe('idle');
  });
});

describe('names a mention reaches', () => {
  it('refuses a managed agent named so that no mention reaches it (add and rename), saying which characters work; nothing changes', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const add = (name: string) => app!.fail('agents.add', { provider: 'claude_code', folder: app!.folder, roomId: ROOM, name, permissions: 'read_only' });
    const refused = await add('Fir Tree!!');
    expect(refused).toBe('"Fir Tree!!" cannot be mentioned: @Fir Tree!! would reach "Fir". A name people can mention has only letters A–Z and a–z, digits, and _ . : / -, with no spaces (like FirTree).');
    expect(await add('all')).toContain('mentions everyone');
    expect(await app.call('agents.list', {})).toEqual([]);

    const fir = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Fir-Tree', permissions: 'read_only' });
    expect(await app.fail('workers.rename', { sessionId: fir.sessionId, name: 'Fir Tree' })).toContain('"Fir Tree" cannot be mentioned');
    expect((await listed(app, fir.agentId)).name).toBe('Fir-Tree');
    expect((await app.call('workers.rename', { sessionId: fir.sessionId, name: 'Fir.Tree' })).name).toBe('Fir.Tree');
  });
});
