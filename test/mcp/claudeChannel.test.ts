// The real Claude Code 2.1.332, interactive in a tmux session (as a person runs it), started
// with the development-channels flag and our helper as its MCP server, against a fake
// Anthropic server (the model is the only fake: it lives off this machine). It joins and
// registers as Juniper in a real first turn; then Cedar mentions it while it sits at its
// prompt, and the app pushes the mention into its session as a channel notification.
// Offline, with API-key auth, Claude Code 2.1.332 does not take channels (a claude.ai login
// and a runtime gate are required: agent-clis.md §Channels); it then says so, on screen and in
// its debug log, and the test holds it to exactly that text. Once channels open up, the same
// test demands the other outcome: the mention arrives as a new turn at the model.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, cliBin, isAlive, tempDir, waitUntil, type ServeHandle } from '../support';
import { callTool, say, startFakeModel, type FakeModel } from '../support/fakeModels';
import type { PlacedApp } from '../support/place';
import { CLI_BIN } from '../main/agents/managedApp';
import { connectAgent, registerWorker, startApp, type Agent } from './tools/harness';

const run = promisify(execFile);
const ROOM = 'claude-room';
/** What Claude Code 2.1.332 shows at its prompt when it will not take channels (checked 2026-12-02). */
const CHANNELS_REFUSED_ON_SCREEN = "channels aren't available right now";
/** …and what its debug log says about our server then. */
const CHANNELS_REFUSED_IN_LOG = 'MCP server "letagents": Channel notifications skipped: channels feature is not currently available';

let home: string;
let socket: string;
let model: FakeModel;
let serve: ServeHandle & PlacedApp;
let cedar: Agent;
let cedarWorker: string;
let poller: NodeJS.Timeout | undefined;
/** Claude Code's process (the pane's): it must be gone before its home folder is removed. */
let claudePid: number | undefined;
/** Every line the terminal showed so far (notices come and go, so the pane is read often). */
const screen = new Set<string>();

const tmux = (...args: string[]) => run('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
async function readPane(): Promise<void> {
  const { stdout } = await tmux('capture-pane', '-p', '-S', '-200');
  for (const line of stdout.split('\n')) if (line.trim()) screen.add(line.trim());
}
const shown = (text: string) => [...screen].some((line) => line.includes(text));
const debugLog = () => (existsSync(join(home, 'claude-debug.txt')) ? readFileSync(join(home, 'claude-debug.txt'), 'utf8') : '');
const modelSaw = (text: string) => model.script.requests.some((r) => r.prompts.some((p) => p.includes(text)));

beforeAll(async () => {
  home = tempDir('la-claude-tmux-');
  socket = join(home, 'tmux.sock');
  model = await startFakeModel('claude_code', home);
  serve = await startApp({ env: model.env });
  cedar = await connectAgent(serve, { clientName: 'letagents-test' });
  cedarWorker = (await registerWorker(cedar, ROOM, 'Cedar')).workerId;
  // A person who finished onboarding, approved the key and trusts the folder: no first-run dialogs.
  const folder = join(home, 'work');
  mkdirSync(folder);
  const key = model.env.ANTHROPIC_API_KEY;
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, theme: 'dark', customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] }, projects: { [folder]: { hasTrustDialogAccepted: true } } }));
  const mcpConfig = join(home, 'mcp.json');
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { letagents: { command: process.execPath, args: [cliBin, 'mcp', '--data-dir', serve.dataDir] } } }));
  const env = Object.entries({ ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` }).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  // The launch command Connect agents offers (the channel flag), plus the fake's folder and a debug log.
  await tmux('new-session', '-d', '-x', '200', '-y', '50', '-c', folder, ...env,
    `${CLI_BIN}/claude`, '--dangerously-load-development-channels', 'server:letagents',
    '--mcp-config', mcpConfig, '--strict-mcp-config', '--allowedTools', 'mcp__letagents__*', '--debug-file', join(home, 'claude-debug.txt'));
  claudePid = Number((await tmux('list-panes', '-F', '#{pane_pid}')).stdout.trim());
  poller = setInterval(() => void readPane().catch(() => undefined), 200);
  await waitUntil(() => shown('❯'), 60_000, 'the Claude Code prompt');
}, 120_000);

afterAll(async () => {
  clearInterval(poller);
  if (socket) await tmux('kill-server').catch(() => undefined);
  // Claude Code still writes its cache while it exits.
  if (claudePid) {
    await waitUntil(() => !isAlive(claudePid!), 10_000, 'Claude Code exiting').catch(() => process.kill(claudePid!, 'SIGKILL'));
    await waitUntil(() => !isAlive(claudePid!), 15_000, 'Claude Code gone');
  }
  await cedar?.client.close();
  await serve?.stop();
  await model?.close();
  await cleanupSpawned();
}, 30_000);

const statusOf = async (messageId: string) =>
  (await cedar.call('get_message_status', { worker_id: cedarWorker, message_id: messageId, agent: 'Juniper' })).recipients[0] as Record<string, unknown> | undefined;

describe('Claude Code at its prompt in a terminal, started with the channel flag', () => {
  it(`connects through the helper and registers; a mention is pushed and arrives as a new turn, or Claude Code says "${CHANNELS_REFUSED_ON_SCREEN}" (offline, API key)`, async ({ annotate }) => {
    // A person asks it to join: a real turn, its tools are ours, through the helper.
    model.script.push(
      null,
      callTool('join_room', { name: ROOM }),
      callTool('register_agent_session', { room_id: ROOM, registration_key: 'key-claude-tmux-4f7a9c2e81d6b035', display_name: 'Juniper' }),
      say('Registered as Juniper.'),
    );
    await tmux('send-keys', '-l', `Join the LetAgents room ${ROOM}`);
    await tmux('send-keys', 'Enter');
    await waitUntil(() => shown('Registered as Juniper.'), 60_000, 'the joining turn');

    const mention = '@Juniper the nightly build broke, can you look?';
    const id = (await cedar.call('send_message', { worker_id: cedarWorker, text: mention })).id as string;
    // Registered and connected, at its prompt (not in a wait), and the app pushed the mention into its session.
    await waitUntil(async () => typeof (await statusOf(id))?.pushed_at === 'string', 10_000, 'the pushed receipt');
    const status = (await statusOf(id))!;
    expect(status).toMatchObject({ agent: 'Juniper', delivered_at: null });
    // Connected, not inside wait_for_messages ("working" for a while after its last tool call).
    expect(['idle', 'working']).toContain(status.reachability);

    // An idle session takes a channel message within about a second.
    await waitUntil(() => modelSaw(mention), 5_000, 'a new turn').catch(() => undefined);
    if (modelSaw(mention)) {
      const prompt = model.script.requests.flatMap((r) => r.prompts).find((p) => p.includes(mention))!;
      expect(prompt).toContain(`<channel source="letagents"`);
      expect(prompt).toContain(`message_id="${id}"`);
      await annotate('Claude Code took the pushed mention as a new turn.');
      return;
    }
    // No turn: then it must have refused channels, in exactly the words recorded above.
    expect(debugLog()).toContain(CHANNELS_REFUSED_IN_LOG);
    // The notice comes in turn with the others at the prompt, some seconds after the start.
    await waitUntil(() => shown(CHANNELS_REFUSED_ON_SCREEN), 30_000, `"${CHANNELS_REFUSED_ON_SCREEN}" on screen`).catch(() => undefined);
    expect(shown(CHANNELS_REFUSED_ON_SCREEN), `the terminal showed:\n${[...screen].join('\n')}`).toBe(true);
    await annotate(`Claude Code 2.1.332 refused channels offline: on screen "${CHANNELS_REFUSED_ON_SCREEN}"; debug log "${CHANNELS_REFUSED_IN_LOG}"`);
  }, 120_000);
});
