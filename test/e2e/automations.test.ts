// The Automations view in Chromium by keyboard alone, against a real `serve` whose Claude Code is
// the real CLI talking to a fake model (the only fake): reach the view from the sidebar, add an
// automation for a managed agent, run it now and follow the link to its reply in the room, pause
// it, edit it and delete it — every stop showing a focus ring, no pointer ever used — and axe
// finds no WCAG 2.1 AA violation in the view with a card and in its dialog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { runCli, tempDir } from '../support';
import { replyInRoom } from '../support/fakeModels';
import { CLI_BIN } from '../main/agents/managedApp';
import { axeViolations } from './lib/axe';
import { countPointerPresses, isFocused, pointerPresses, pressUntilFocused } from './lib/keyboard';
import { openManagedApp, type ManagedServe } from './lib/managed';
import { saveShot } from './lib/shots';

const ROOM = 'release-work';
let served: ManagedServe;

beforeAll(async () => {
  served = await openManagedApp('automations', ROOM);
  // The managed agent the automation runs (set up from the command line: the flow below is the view's).
  const added = await runCli(['agent', 'add', '--room', ROOM, '--name', 'Juniper', '--provider', 'claude-code', '--folder', served.folder, '--data-dir', served.app.serve.dataDir], {
    env: { ...served.model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` },
    cwd: tempDir('la-e2e-automation-cli-'),
  });
  expect(added.stderr).toBe('');
  await served.app.browser.context.addInitScript(countPointerPresses);
  await served.app.open();
}, 60_000);

afterAll(async () => {
  await served?.close();
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'LetAgents' });
const automationCard = (page: Page, name: string) => page.getByRole('list', { name: 'Automations' }).locator('> li').filter({ hasText: name });

/** Tabs to `target` and presses Enter. */
async function activate(page: Page, target: Locator, key = 'Tab'): Promise<void> {
  await pressUntilFocused(page, key, target);
  await page.keyboard.press('Enter');
}

async function audited(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  await saveShot(page, `automations-${what}`);
  expect(violations, violations.join('\n')).toEqual([]);
}

describe('the Automations view by keyboard alone', () => {
  it('adds an automation, runs it, opens its reply, pauses, edits and deletes it', async () => {
    const { page } = served.app;
    await activate(page, nav(page).getByRole('button', { name: 'Automations', exact: true }));
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    await page.getByText(/^None yet\./).waitFor();

    await activate(page, page.getByRole('button', { name: 'Add automation' }));
    const dialog = page.getByRole('dialog', { name: 'Add automation' });
    const name = dialog.getByRole('textbox', { name: 'Name' });
    await name.waitFor();
    expect(await isFocused(name)).toBe(true);
    await page.keyboard.type('Release check');
    await pressUntilFocused(page, 'Tab', dialog.getByRole('textbox', { name: 'What to do' }));
    await page.keyboard.type('Say whether the release notes are ready.');
    // "When it starts": from "Every day at a time" up to "Every few minutes or hours", by arrow key.
    await pressUntilFocused(page, 'Tab', dialog.getByRole('combobox', { name: 'When it starts' }));
    await page.keyboard.press('ArrowUp');
    await pressUntilFocused(page, 'Tab', dialog.getByRole('textbox', { name: 'Every' }));
    await page.keyboard.press('Control+a');
    await page.keyboard.type('30');
    await audited(page, 'add-dialog');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    const card = automationCard(page, 'Release check');
    await card.getByText('Every 30 minutes · Juniper does it').waitFor();
    await card.getByText('in 30 min').waitFor();
    await audited(page, 'view');

    served.model.script.push('Juniper', ...replyInRoom('The release notes are ready.'));
    await activate(page, card.getByRole('button', { name: 'Run now' }));
    await card.getByText(/· Done ·/).waitFor({ timeout: 60_000 });
    // The link sits above the card's buttons.
    await activate(page, card.getByRole('button', { name: 'Open the reply' }), 'Shift+Tab');
    await page.getByRole('heading', { name: ROOM, level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'The release notes are ready.' }).waitFor();

    await activate(page, nav(page).getByRole('button', { name: 'Automations', exact: true }), 'Shift+Tab');
    await activate(page, card.getByRole('button', { name: 'Pause' }));
    await card.getByText('Paused', { exact: true }).waitFor();
    await card.getByText('none while paused').waitFor();

    await activate(page, card.getByRole('button', { name: 'Edit…' }));
    const edit = page.getByRole('dialog', { name: 'Edit "Release check"' });
    const editName = edit.getByRole('textbox', { name: 'Name' });
    await editName.waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Release notes check');
    await page.keyboard.press('Enter');
    await edit.waitFor({ state: 'detached' });
    const renamed = automationCard(page, 'Release notes check');
    await renamed.getByText('Every 30 minutes · Juniper does it').waitFor();

    await activate(page, renamed.getByRole('button', { name: 'Delete…' }));
    const confirm = page.getByRole('dialog', { name: 'Delete "Release notes check"?' });
    await confirm.waitFor();
    await page.keyboard.press('Enter');
    await page.getByText(/^None yet\./).waitFor();
    expect(await pointerPresses(page)).toBe(0);
    expect(served.app.problems).toEqual([]);
  });
});
