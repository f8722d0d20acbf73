// Managed agents in Chromium: a `serve` whose Claude Code is the real CLI talking to a fake
// model server (the only fake), a folder for the agent and a room an agent created; and the
// Add dialog filled in as a person does.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { tempDir } from '../../support';
import { startFakeModel, type FakeModel } from '../../support/fakeModels';
import { CLI_BIN } from '../../main/agents/managedApp';
import { joinAgent } from './agents';
import { openApp, type AppSession } from './app';

export interface ManagedServe {
  app: AppSession;
  model: FakeModel;
  /** An empty folder (not a git repository) for the agent to work in. */
  folder: string;
  close(): Promise<void>;
}

export async function openManagedApp(name: string, room: string): Promise<ManagedServe> {
  const model = await startFakeModel('claude_code', tempDir(`la-e2e-${name}-home-`));
  const folder = join(tempDir(`la-e2e-${name}-`), 'checkout-service');
  mkdirSync(folder);
  const app = await openApp({ env: { ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` } });
  const cedar = await joinAgent(app.serve.dataDir, { room, name: 'Cedar' });
  await cedar.close();
  return {
    app,
    model,
    folder,
    close: async () => {
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
