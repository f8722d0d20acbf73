// Managed agents in Chromium: a `serve` whose Claude Code is the real CLI talking to a fake
// model server (the only fake; or, not signed in, without its key), a folder for the agent
// (a git repository on `main` when asked) and a room that Cedar, an MCP agent, created and stays in; and the Add dialog
// filled in as a person does.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
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

/**
 * `signedIn: false`: Claude Code runs without its key, so it is not signed in (the model server is never reached).
 * `path`: the app's whole PATH (default: the checkout's CLIs first, then this one's); `width`/`height`: the window.
 */
export async function openManagedApp(
  name: string,
  room: string,
  options: { repo?: boolean; signedIn?: boolean; path?: string; width?: number; height?: number } = {},
): Promise<ManagedServe> {
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
  const { ANTHROPIC_API_KEY: _key, ...withoutKey } = model.env;
  const env = options.signedIn === false ? withoutKey : model.env;
  const app = await openApp({ env: { ...env, PATH: options.path ?? `${CLI_BIN}:${process.env.PATH ?? ''}` }, width: options.width, height: options.height });
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

/** What the Add dialog is filled in with. */
export interface ClaudeAgentToAdd {
  name: string;
  room: string;
  folder: string;
  permission?: RegExp;
  /** Its role or standing instructions. */
  instructions?: string;
  /** Looks at the filled-in dialog before Add is pressed (a warning it shows, a screenshot). */
  beforeAdd?: (dialog: Locator) => Promise<void>;
}

/**
 * Waits for the Add dialog's providers: listed once each CLI said where it is and whether it is
 * signed in (real CLI processes, seconds each on a loaded machine: past the page's 10 s once).
 */
export async function providersListed(dialog: Locator): Promise<void> {
  await dialog.getByRole('radio', { name: 'Claude Code', exact: true }).waitFor({ timeout: 30_000 });
}

/** Adds a Claude Code agent through the Agents page's Add dialog. */
export async function addClaudeAgent(page: Page, agent: ClaudeAgentToAdd): Promise<void> {
  await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Agents', exact: true }).click();
  await page.getByRole('button', { name: 'Add agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add agent' });
  await providersListed(dialog);
  await dialog.getByRole('radio', { name: 'Claude Code', exact: true }).check();
  await dialog.getByRole('textbox', { name: 'Name in the room' }).fill(agent.name);
  await dialog.getByRole('combobox', { name: 'Room' }).selectOption(agent.room);
  await dialog.getByRole('textbox', { name: 'Folder it works in' }).fill(agent.folder);
  if (agent.permission) await dialog.getByRole('radio', { name: agent.permission }).check();
  if (agent.instructions) await dialog.getByRole('textbox', { name: /Role or standing instructions/ }).fill(agent.instructions);
  await agent.beforeAdd?.(dialog);
  await dialog.getByRole('button', { name: 'Add agent' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** A managed agent's card on the Agents page. */
export function managedCard(page: Page, name: string) {
  return page.getByRole('list', { name: 'Managed agents' }).locator('> li').filter({ has: page.getByText(name, { exact: true }) });
}
