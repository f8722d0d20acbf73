// Sends one notification to the person's own target (issue 37), nothing hosted of ours between:
// an ntfy topic (JSON published to the server's root: https://docs.ntfy.sh/publish/, so titles
// in any script need no header encoding) or a generic webhook (the payload as JSON). A token
// goes as a bearer token. Fails with a plain reason; never retries on its own.
import type { NotifyKind } from '../../shared/model/notifications';
import type { NotifyTarget } from './notifySettings';

/** What a notification carries: the agent, the room, the kind, a link to the item, and the text only when allowed. */
export interface NotificationPayload {
  readonly kind: NotifyKind;
  readonly agent: string;
  readonly room: string;
  readonly roomId: string;
  readonly place: string;
  /** One line without the message text ("Approval needed: Asker in release-work"). */
  readonly title: string;
  /** The message (the command, the question, the mention); null unless the person allowed it. */
  readonly text: string | null;
  /** The item on the paired phone's page; null while the phone listener is off. */
  readonly link: string | null;
}

const TIMEOUT_MS = 10_000;
const PRIORITY: Readonly<Record<NotifyKind, number>> = { approval: 4, blocked_task: 4, cant_run: 4, mention: 3, turn_finished: 2 };

export async function sendNotification(target: NotifyTarget, payload: NotificationPayload, fetcher: typeof fetch = fetch): Promise<void> {
  const { url, body } = target.kind === 'ntfy' ? ntfyRequest(target.url, payload) : { url: target.url, body: webhookBody(payload) };
  let response: Response;
  try {
    response = await fetcher(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}) },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new Error(`the ${target.kind === 'ntfy' ? 'ntfy server' : 'webhook'} could not be reached (${(error as Error).message})`);
  }
  // The body is not read: a target's answer is not ours to show.
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) throw new Error(`the ${target.kind === 'ntfy' ? 'ntfy server' : 'webhook'} answered ${response.status}`);
}

/** ntfy's JSON publishing: POST {topic, title, message, …} to the server's root; the topic is the URL's last part. */
function ntfyRequest(topicUrl: string, payload: NotificationPayload): { url: string; body: Record<string, unknown> } {
  const url = new URL(topicUrl);
  const parts = url.pathname.split('/').filter(Boolean);
  const topic = parts.pop()!;
  url.pathname = `/${parts.join('/')}`;
  url.search = '';
  return {
    url: url.toString(),
    body: {
      topic,
      title: payload.title,
      message: payload.text ?? `${payload.agent} in ${payload.room}. Open LetAgents to see it.`,
      tags: [payload.kind],
      priority: PRIORITY[payload.kind],
      ...(payload.link ? { click: payload.link } : {}),
    },
  };
}

function webhookBody(payload: NotificationPayload): Record<string, unknown> {
  return { ...payload, app: 'LetAgents', at: new Date().toISOString() };
}
