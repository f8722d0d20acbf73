// Delivery flows as a person does them (issue 14): the limits set on the Settings page, and
// scripted agents that answer every message that wakes them on real helper connections.
import type { Page } from 'playwright-core';
import type { Agent } from './agents';

export interface Limits {
  readonly unansweredAfterSeconds?: number;
  readonly loopGuardMessages?: number;
  readonly loopGuardMinutes?: number;
}

const LABELS: Record<keyof Limits, string> = {
  unansweredAfterSeconds: 'Not picked up after (seconds)',
  loopGuardMessages: 'Loop guard: messages',
  loopGuardMinutes: 'Loop guard: within (minutes)',
};

/** Settings → Delivery: types the limits and saves them. */
export async function setDeliveryLimits(page: Page, limits: Limits): Promise<void> {
  await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const section = page.getByRole('region', { name: 'Delivery' });
  for (const [key, value] of Object.entries(limits) as Array<[keyof Limits, number]>) await section.getByRole('textbox', { name: LABELS[key] }).fill(String(value));
  await section.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Delivery limits saved.').first().waitFor();
}

/**
 * An agent that waits, and answers each wake by mentioning `other`, until a wait returns with
 * nothing for it. Returns what it posted (with each send result).
 */
export async function pingPong(agent: Agent, other: string, cursor: string | null, waitMs: number): Promise<Array<Record<string, unknown>>> {
  const sent: Array<Record<string, unknown>> = [];
  let after = cursor;
  for (;;) {
    const woke = await agent.call('wait_for_messages', { ...(after ? { after_message_id: after } : {}), timeout: waitMs });
    if (woke.isError) throw new Error(woke.text);
    after = woke.last_observed_message_id;
    if (woke.messages.length === 0) return sent;
    sent.push(await agent.call('send_message', { text: `@${other} ping ${sent.length + 1}` }));
  }
}
