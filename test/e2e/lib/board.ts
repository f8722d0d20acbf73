// Board helpers for flows: a column by its label, a card by its task id, and a pointer drag
// that can look at the board while the card is in the air.
import type { Locator, Page } from 'playwright-core';

export const column = (page: Page, label: string): Locator => page.getByRole('region', { name: label, exact: true });

/** A task's card inside a column (the drag overlay's copy is outside every column). */
export const card = (inColumn: Locator, taskId: string): Locator => inColumn.getByRole('article', { name: new RegExp(`^${taskId}:`) });

/**
 * Drags `what` over `target` with the mouse, runs `whileOver` with the card in the air above
 * the target, then drops it there and waits until the drop has settled.
 */
export async function dragCard(page: Page, what: Locator, target: Locator, whileOver?: () => Promise<void>): Promise<void> {
  await what.scrollIntoViewIfNeeded();
  const from = (await what.boundingBox())!;
  await page.mouse.move(from.x + 24, from.y + 10);
  await page.mouse.down();
  await page.mouse.move(from.x + 48, from.y + 36, { steps: 5 });
  await page.locator('.task-card.dragging').waitFor();
  // The drop lands where the board last rendered the pointer: on a busy machine the last moves
  // may not be rendered yet, and near its edges dnd-kit scrolls the board sideways under the
  // card. Aim at the target where it is now until it shows the card over it (highlighted, or
  // refused), as a person's eye follows it before letting go.
  const over = target.and(page.locator('.column-over, [aria-disabled="true"]'));
  for (let aim = 1; ; aim++) {
    const to = (await target.boundingBox())!;
    // Over the target's near part: the far edges of the board make dnd-kit scroll it sideways.
    await page.mouse.move(to.x + Math.min(80, to.width / 3), to.y + Math.min(140, to.height / 2), { steps: aim === 1 ? 12 : 4 });
    try {
      await over.waitFor({ timeout: 2_000 });
      break;
    } catch (error) {
      if (aim === 5) throw error;
    }
  }
  await whileOver?.();
  await page.mouse.up();
  // The overlay flies back to the card (dnd-kit's drop animation) before the card shows again.
  await page.locator('.task-card.dragging, .task-card.overlay').first().waitFor({ state: 'detached' });
}
