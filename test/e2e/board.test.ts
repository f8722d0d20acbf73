// The board with an agent on a real MCP connection: the person accepts the agent's
// proposal, "Move to…" offers only allowed targets, a drop on a refused column does
// nothing (the column is dimmed and disabled while dragging), an allowed drop moves the
// task for the agent too, and the keyboard "Move to…" moves it on from there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAgent, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { card, column, dragCard } from './lib/board';
import { saveShot } from './lib/shots';

const ROOM = 'board-day';
let app: AppSession;
let juniper: Agent;
let taskId: string;

async function statusForAgent(): Promise<{ status: string; assignee: unknown }> {
  const board = await juniper.call('get_board');
  const task = (board.tasks as Array<{ id: string; status: string; assignee: unknown }>).find((t) => t.id === taskId)!;
  return { status: task.status, assignee: task.assignee };
}

beforeAll(async () => {
  app = await openApp();
  juniper = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Juniper' });
  const added = await juniper.call('add_task', { title: 'Write release notes' });
  taskId = added.task.id;
  await roomButton(app.page, ROOM).click();
  await app.page.getByRole('tab', { name: 'Board' }).click();
  await card(column(app.page, 'Proposed'), taskId).waitFor();
}, 60_000);

afterAll(async () => {
  await juniper?.close();
  await app?.close();
});

describe('the board', () => {
  it("accepts an agent's proposed task", async () => {
    const proposed = card(column(app.page, 'Proposed'), taskId);
    await proposed.getByText('Proposed by Juniper').waitFor();
    await proposed.getByRole('button', { name: 'Accept' }).click();
    await card(column(app.page, 'Accepted'), taskId).waitFor();
    expect(await card(column(app.page, 'Proposed'), taskId).count()).toBe(0);
    expect((await statusForAgent()).status).toBe('accepted');
  });

  it('offers only the allowed targets in the keyboard "Move to…" menu', async () => {
    const { page } = app;
    const menuButton = card(column(page, 'Accepted'), taskId).getByRole('button', { name: `Move ${taskId} to…` });
    await menuButton.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu', { name: `Move ${taskId} to…` });
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Assigned', 'Cancelled']);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Assigned');
    await saveShot(page, 'board-move-to-menu');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  });

  it('refuses a drop on a column the transitions do not allow: dimmed while dragging, the card stays', async () => {
    const { page } = app;
    const inProgress = column(page, 'In progress');
    await dragCard(page, card(column(page, 'Accepted'), taskId), inProgress, async () => {
      await expect.poll(() => inProgress.getAttribute('aria-disabled')).toBe('true');
      await inProgress.getByText("Can't move here").waitFor();
      expect(Number(await inProgress.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(1);
      expect(await column(page, 'Assigned').getAttribute('aria-disabled')).toBeNull();
      await saveShot(page, 'board-drop-refused');
    });
    expect(await inProgress.getAttribute('aria-disabled')).toBeNull();
    const stayed = card(column(page, 'Accepted'), taskId);
    await stayed.waitFor();
    expect(await stayed.evaluate((el) => getComputedStyle(el.parentElement!).opacity)).toBe('1');
    expect(await card(inProgress, taskId).count()).toBe(0);
    expect((await statusForAgent()).status).toBe('accepted');
  });

  it('moves the task when dropped on an allowed column (assigning it to the agent)', async () => {
    const { page } = app;
    await dragCard(page, card(column(page, 'Accepted'), taskId), column(page, 'Assigned'));
    const dialog = page.getByRole('dialog', { name: `Assign ${taskId}` });
    await dialog.getByRole('radio', { name: /Juniper/ }).check();
    await dialog.getByRole('button', { name: 'Assign' }).click();
    const assigned = card(column(page, 'Assigned'), taskId);
    await assigned.getByTitle('Assigned to Juniper').waitFor();
    const now = await statusForAgent();
    expect(now.status).toBe('assigned');
    expect(JSON.stringify(now.assignee)).toContain('Juniper');
    await saveShot(page, 'board-task-moved');
    expect(app.problems).toEqual([]);
  });

  it('moves the task with the keyboard through "Move to…", which follows the new status', async () => {
    const { page } = app;
    const menuButton = card(column(page, 'Assigned'), taskId).getByRole('button', { name: `Move ${taskId} to…` });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: `Move ${taskId} to…` });
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['In progress', 'In review', 'Cancelled']);
    await page.keyboard.press('Enter'); // the first item, focused on open
    await card(column(page, 'In progress'), taskId).waitFor();
    expect((await statusForAgent()).status).toBe('in_progress');
    expect(app.problems).toEqual([]);
  });
});
