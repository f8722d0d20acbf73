// Managed agents in Chromium: a `serve` whose Claude Code is the real CLI talking to a fake
// model server (the only fake), a folder for the agent (a git repository on `main` when
// asked) and a room that Cedar, an MCP agent, created and stays in; and the Add dialog
// filled in as a person does.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { tempDir } from '../../support';
import { startFakeModel, type FakeModel } from '../../support/fakeModels';
import { CLI_BIN } from '../../main/agents/managedApp';
import { joinAgent, type Agent } from './agents';
import { openApp, type AppSession } from './app';

export interface ManagedServe {
  app: AppSession;
  model: FakeModel;
  /** The agent's folder: empty, or with `repo` a git repository whose `main` has one commit (shared.txt). */
  folder: string;
  /** An MCP agent in the room (it created it), e.g. to add tasks. */
  cedar: Agent;
  /** git in the folder, as the person (their own identity). */
  git(...args: string[]): string;
  close(): Promise<void>;
}

export async function openManagedApp(name: string, room: string, options: { repo?: boolean } = {}): Promise<ManagedServe> {
  const model = await startFakeModel('claude_code', tempDir(`la-e2e-${name}-home-`));
  const folder = join(tempDir(`la-e2e-${name}-`), 'checkout-service');
  mkdirSync(folder);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=p@example.com', ...args], { cwd: folder, encoding: 'utf8' }).trim();
  if (options.repo) {
    git('init', '-q', '-b', 'main');
    writeFileSync(join(folder, 'shared.txt'), 'first line\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
  }
  const app = await openApp({ env: { ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` } });
  const cedar = await joinAgent(app.serve.dataDir, { room, name: 'Cedar' });
  return {
    app,
    model,
    folder,
    cedar,
    git,
    close: async () => {
      await cedar.close();
      await app.close();
      await model.close();
    },
  };
}

/** Adds a Claude Code agent through the Agents page's Add dialog. */
export async function addClaudeAgent(page: Page, agent: { name: string; room: string; folder: string; permission?: RegExp }): Promise<void> {
  await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Agents', exact: true }).click();
  await page.getByRole('button', { name: 'Add agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add agent' });
  await dialog.getByRole('radio', { name: 'Claude Code', exact: true }).check();
  await dialog.getByRole('textbox', { name: 'Name in the room' }).fill(agent.name);
  await dialog.getByRole('combobox', { name: 'Room' }).selectOption(agent.room);
  await dialog.getByRole('textbox', { name: 'Folder it works in' }).fill(agent.folder);
  if (agent.permission) await dialog.getByRole('radio', { name: agent.permission }).check();
  await dialog.getByRole('button', { name: 'Add agent' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** A managed agent's card on the Agents page. */
export function managedCard(page: Page, name: string) {
  return page.getByRole('list', { name: 'Managed agents' }).locator('> li').filter({ has: page.getByText(name, { exact: true }) });
}
