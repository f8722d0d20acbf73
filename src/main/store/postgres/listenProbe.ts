// Whether a team's LISTEN endpoint delivers notifications. Through a transaction-mode pooler
// (PgBouncer, Supabase's pooler, RDS Proxy) LISTEN is accepted but the session it belongs to
// goes back to the pool after the statement, so nothing ever arrives: the only way to know is
// to LISTEN on a fresh channel, NOTIFY it from another connection and wait a moment.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/** How long a notification may take to arrive before the endpoint counts as not delivering. */
export const LISTEN_PROBE_MS = 1_500;


/**
 * True when a NOTIFY sent with `notify` (another connection) reaches `listener` within
 * `timeoutMs`. The probe channel is this call's own, so no other app ever sees it.
 */
export async function deliversNotifications(
  listener: pg.Client,
  notify: (text: string, values: string[]) => Promise<unknown>,
  timeoutMs = LISTEN_PROBE_MS,
): Promise<boolean> {
  const channel = `letagents_probe_${randomBytes(6).toString('hex')}`;
  let onNotification: (n: pg.Notification) => void = () => undefined;
  let timer: NodeJS.Timeout | undefined;
  const heard = new Promise<boolean>((resolve) => {
    onNotification = (n) => n.channel === channel && resolve(true);
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  listener.on('notification', onNotification);
  try {
    await listener.query(`LISTEN ${channel}`);
    await notify('SELECT pg_notify($1, $2)', [channel, 'probe']);
    return await heard;
  } finally {
    clearTimeout(timer);
    listener.off('notification', onNotification);
    await listener.query(`UNLISTEN ${channel}`).catch(() => undefined);
  }
}
