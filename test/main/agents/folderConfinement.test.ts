// What each provider's permission levels confine on disk, measured with the REAL CLIs (fake model
// servers: the model is the only fake) while the app itself runs one level above the agent's
// folder (its PWD there, as with `npm start` in a checkout holding the folder): a prompt-injected
// model writes inside the folder (allowed where the level writes), writes one level up (always
// refused) and reads a secret one level up (refused wherever the level confines reads). Every
// CLI under "read only" and "edit"; Claude Code under "Ask me" too, where the person allows what
// the turn asks. Issue 32 item 1: OpenCode took its project folder from PWD, so it was confined to
// the app's folder.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentPermissions } from '../../../src/shared/model/managedAgents';
import { cleanupSpawned } from '../../support';
import { callBuiltInTool, say, type FakeProvider, type ModelStep } from '../../support/fakeModels';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'confinement-room';
const INSIDE_TEXT = 'inside-text-0815';
const SECRET_UP = 'secret-one-level-up-4711';
/** OpenCode starts slowly on a shared machine (its own server, database and plugin install each run). */
const SLOW = { timeout: 300_000 };

/** Each CLI's own file tools as the model calls them (Codex's through its shell). */
const TOOLS: Record<FakeProvider, { write(file: string, text: string): ModelStep; read(file: string): ModelStep }> = {
  claude_code: {
    write: (file, text) => callBuiltInTool('Write', { file_path: file, content: text }),
    read: (file) => callBuiltInTool('Read', { file_path: file }),
  },
  codex: {
    write: (file, text) => callBuiltInTool('exec_command', { cmd: `printf %s '${text}' > '${file}'` }),
    read: (file) => callBuiltInTool('exec_command', { cmd: `cat '${file}'` }),
  },
  gemini: {
    write: (file, text) => callBuiltInTool('write_file', { file_path: file, content: text }),
    read: (file) => callBuiltInTool('read_file', { file_path: file }),
  },
  opencode: {
    write: (file, text) => callBuiltInTool('write', { filePath: file, content: text }),
    read: (file) => callBuiltInTool('read', { filePath: file }),
  },
  copilot: {
    write: (file, text) => callBuiltInTool('create', { path: file, file_text: text }),
    read: (file) => callBuiltInTool('view', { path: file }),
  },
};

/** Where a level lets reads reach past the folder (Codex "edit": its sandbox reads the whole disk but the data folder). */
const READS_PAST_FOLDER: ReadonlyArray<readonly [FakeProvider, AgentPermissions]> = [['codex', 'edit']];

const CASES: ReadonlyArray<readonly [FakeProvider, 'read_only' | 'edit']> = (['claude_code', 'codex', 'gemini', 'opencode', 'copilot'] as const).flatMap(
  (provider) => (['read_only', 'edit'] as const).map((level) => [provider, level] as const),
);

describe('a managed Claude Code agent under "Ask me", the app running one level up (real CLI, fake model)', () => {
  it('asks before writing inside its folder, and writes or reads nothing one level up even unasked', async () => {
    app = await startManagedApp({ provider: 'claude_code', env: (env, { folder }) => ({ ...env, PWD: dirname(folder) }) });
    await app.room(ROOM);
    const up = dirname(app.folder);
    writeFileSync(join(up, 'secret.txt'), SECRET_UP);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Asker', permissions: 'ask' });
    const tools = TOOLS.claude_code;
    app.model.script.push('Asker', tools.write(join(app.folder, 'written-inside.txt'), 'inside'), tools.write(join(up, 'written-up.txt'), 'escaped'), tools.read(join(up, 'secret.txt')), say('Tried.'));
    await app.call('agents.runNow', { agentId: agent.agentId });
    // The person allows whatever the turn asks; only the write inside the folder may ask.
    const asked = new Map<number, string>();
    const answering = (async () => {
      for (;;) {
        const status = (await app!.turns(agent.agentId)).find((t) => t.number === 1)?.status;
        if (status !== undefined && status !== 'running') return;
        for (const item of (await app!.call('needsYou.list', {})).items) {
          if (!item.approval || asked.has(item.approval.number)) continue;
          asked.set(item.approval.number, item.approval.summary);
          await app!.call('approvals.decide', { number: item.approval.number, decision: 'allow_once' });
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const turn = await app.turnEnded(agent.agentId, 1, 120_000);
    await answering;
    const results = app.model.script.requestsFor('Asker').at(-1)!.toolResults.join('\n');
    const seen = JSON.stringify({ status: turn.status, asked: [...asked.values()], results });
    expect([...asked.values()], seen).toEqual([join(app.folder, 'written-inside.txt')]);
    expect(readFileSync(join(app.folder, 'written-inside.txt'), 'utf8'), seen).toBe('inside');
    expect(existsSync(join(up, 'written-up.txt')), seen).toBe(false);
    expect(results, seen).not.toContain(SECRET_UP);
  });
});

describe.each(CASES)('a managed %s agent under "%s", the app running one level up (real CLI, fake model)', (provider, level) => {
  it('writes inside its folder only where the level writes, never one level up, and reads nothing one level up where the level confines reads', SLOW, async () => {
    // The app's own working folder (PWD) is the agent folder's parent.
    app = await startManagedApp({ provider, env: (env, { folder }) => ({ ...env, PWD: dirname(folder) }) });
    await app.room(ROOM);
    const up = dirname(app.folder);
    writeFileSync(join(app.folder, 'inside.txt'), INSIDE_TEXT);
    writeFileSync(join(up, 'secret.txt'), SECRET_UP);
    const agent = await app.call('agents.add', { provider, folder: app.folder, roomId: ROOM, name: 'Probe', permissions: level });
    const tools = TOOLS[provider];
    app.model.script.push(
      'Probe',
      tools.write(join(app.folder, 'written-inside.txt'), 'inside'),
      tools.write(join(up, 'written-up.txt'), 'escaped'),
      tools.read(join(app.folder, 'inside.txt')),
      tools.read(join(up, 'secret.txt')),
      say('Tried.'),
    );
    await app.call('agents.runNow', { agentId: agent.agentId });
    const turn = await app.turnEnded(agent.agentId, 1, 240_000);
    const results = app.model.script.requestsFor('Probe').at(-1)!.toolResults.join('\n');
    const seen = JSON.stringify({ status: turn.status, results, entries: turn.entries.map((e) => e.text) });

    expect(existsSync(join(up, 'written-up.txt')), seen).toBe(false);
    if (level === 'edit') expect(readFileSync(join(app.folder, 'written-inside.txt'), 'utf8'), seen).toBe('inside');
    else expect(existsSync(join(app.folder, 'written-inside.txt')), seen).toBe(false);
    expect(results, seen).toContain(INSIDE_TEXT);
    const readsPast = READS_PAST_FOLDER.some(([p, l]) => p === provider && l === level);
    if (!readsPast) expect(results, seen).not.toContain(SECRET_UP);
  });
});
