// Driving the app by keyboard alone: press a key until focus reaches something, read what
// has focus and whether a focus ring is drawn for it, and prove the mouse was never used.
import type { Locator, Page } from 'playwright-core';

/** Whether `target` (any element it matches) has the keyboard focus. */
export const isFocused = (target: Locator): Promise<boolean> => target.evaluateAll((els) => els.some((el) => el === document.activeElement));

/** Presses `key` until `target` has focus; fails after `max` presses. Checks a focus ring at every stop. */
export async function pressUntilFocused(page: Page, key: string, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    const from = await describeFocus(page);
    await page.keyboard.press(key);
    if (!(await focusRing(page))) throw new Error(`${key} (press ${i + 1}) from ${from} left no visible focus ring, on ${await describeFocus(page)}`);
    if (await isFocused(target)) return;
  }
  throw new Error(`${max} × ${key} never reached ${target}; focus is on ${await describeFocus(page)}`);
}

/** "button “Needs you”": the focused element's tag and accessible-ish name, for messages. */
export function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'nothing (body)';
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 60) ?? '';
    return `${el.localName} “${name}”`;
  });
}

/**
 * The focus ring drawn for the focused element: its own outline, or (for a text field that
 * sits in a box, like the composer) the outline of the box around it, two levels up at most.
 */
export function focusRing(page: Page): Promise<{ element: string; style: string; width: number; color: string } | null> {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return null;
    for (let el: Element | null = focused, level = 0; el && level < 3; el = el.parentElement, level++) {
      const style = getComputedStyle(el);
      const width = parseFloat(style.outlineWidth);
      if (style.outlineStyle !== 'none' && width >= 2) return { element: el.localName, style: style.outlineStyle, width, color: style.outlineColor };
    }
    return null;
  });
}

/** Fails unless something has focus and a ring at least 2px wide is drawn for it. */
export async function expectFocusRing(page: Page): Promise<void> {
  const ring = await focusRing(page);
  if (!ring) throw new Error(`no visible focus ring on ${await describeFocus(page)}`);
}

/** Runs in the page before the app: counts real pointer presses, so a flow can prove it used none. */
export function countPointerPresses(): void {
  const w = window as unknown as { __pointerPresses: number };
  w.__pointerPresses = 0;
  for (const type of ['pointerdown', 'mousedown', 'touchstart']) {
    window.addEventListener(type, (event) => event.isTrusted && w.__pointerPresses++, { capture: true });
  }
}

export const pointerPresses = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __pointerPresses: number }).__pointerPresses);
