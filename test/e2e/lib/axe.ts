// axe-core in a real page: injects the engine (through the DevTools protocol, so the app's
// strict CSP stays as it is) and runs the WCAG 2.1 A/AA rules over the whole document.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

interface AxeViolation {
  id: string;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** One line per failing element: "color-contrast: .task-age — Fix any of the following: …". */
export async function axeViolations(page: Page, tags: readonly string[] = WCAG_21_AA): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (values) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
    return result.violations;
  }, [...tags]);
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ')}`));
}

/**
 * axe in light and then dark (the page's colour scheme emulated, then left to the system again):
 * one line per failing element, prefixed "light: " or "dark: ". Colours fade between schemes
 * (button transitions), so each is judged once its animations have finished.
 */
export async function axeViolationsInBothSchemes(page: Page): Promise<string[]> {
  const lines: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    lines.push(...(await axeViolations(page)).map((line) => `${scheme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: null });
  return lines;
}

/** Fails the test with every axe violation, in light and dark, naming what was being checked. */
export async function expectNoViolationsInBothSchemes(page: Page, what: string): Promise<void> {
  const violations = await axeViolationsInBothSchemes(page);
  expect(violations, `${what}:\n${violations.join('\n')}`).toEqual([]);
}
