import { afterAll, beforeAll, it } from 'vitest';
import { openApp, roomButton, type AppSession } from '../lib/app';
import { BUSY_ROOM, seedBusyRoom, type BusyRoom } from '../lib/busyRoom';
import { saveShot } from '../lib/shots';

let app: AppSession;
let room: BusyRoom;
beforeAll(async () => {
  app = await openApp({ width: 800, height: 600 });
  room = await seedBusyRoom(app.serve.dataDir);
  await room.birch.call('send_message', { text: `code:\n\n\`\`\`\n${'const wide = '.repeat(30)}\n\`\`\`` });
  await room.birch.call('send_message', { text: Array.from({length: 50}, (_, i) => `line ${i}`).join('\n') });
  await roomButton(app.page, BUSY_ROOM).click();
  await app.page.getByRole('region', { name: 'Messages' }).getByText('line 49').waitFor();
}, 60_000);
afterAll(async () => { await room?.close(); await app?.close(); });

it('looks', async () => {
  const { page } = app;
  await saveShot(page, 'look-800-chat');
  await page.getByRole('region', { name: 'Messages' }).focus();
  await page.keyboard.press('Home');
  await page.waitForTimeout(300);
  await page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: /1 reply/ }).click();
  await page.waitForTimeout(500);
  await saveShot(page, 'look-800-thread');
  await page.getByRole('button', { name: 'Close thread' }).click();
  await page.getByRole('tab', { name: 'Board' }).click();
  await page.waitForTimeout(500);
  await saveShot(page, 'look-800-board');
  await page.getByRole('tab', { name: 'Agents' }).click();
  await page.waitForTimeout(500);
  await saveShot(page, 'look-800-agents');
  await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Agents', exact: true }).click();
  await page.waitForTimeout(500);
  await saveShot(page, 'look-800-agentspage');
  await page.setViewportSize({ width: 1280, height: 800 });
  await roomButton(page, BUSY_ROOM).click();
  await page.getByRole('tab', { name: 'Board' }).click();
  await page.waitForTimeout(500);
  await saveShot(page, 'look-1280-board');
}, 60_000);
