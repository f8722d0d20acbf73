// The person in a room's chat, as they use it: opening it from the sidebar and posting.
import type { Locator, Page } from 'playwright-core';
import { vi } from 'vitest';
import { roomButton } from './app';

export async function openChat(page: Page, room: string): Promise<void> {
  await roomButton(page, room).click();
  await page.getByRole('tab', { name: 'Chat' }).click();
}

/** Posts `text` from the open room's composer; returns the message's article once it shows. */
export async function postAsPerson(page: Page, room: string, text: string): Promise<Locator> {
  const composer = page.getByRole('combobox', { name: `Message ${room}` });
  await composer.fill(text);
  await composer.press('Enter');
  const article = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: text });
  await article.waitFor();
  return article;
}

/**
 * Opens a message's thread with its hover button. The button shows while the pointer is on the
 * message; a row drawn or measured meanwhile (a receipt, the next message) can move the message
 * from under the pointer, so hover and click are tried again until the click lands.
 */
export async function openThread(article: Locator): Promise<void> {
  await vi.waitFor(async () => {
    await article.hover({ timeout: 2_000 });
    await article.getByRole('button', { name: 'Reply in thread' }).click({ timeout: 2_000 });
  }, { timeout: 20_000, interval: 100 });
}
