// The browser host's session endpoint (UI_SESSION_PATH): POST {code} trades a link's
// one-time code for the session cookie; GET says whether this browser has a session. Same
// Host and Origin rules as every other browser-host request (the caller checked them).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UI_KEY_HEADER, type UiSessionAnswer, type UiSessionRefusal } from '../../shared/bridge';
import { setHardeningHeaders } from './securityHeaders';
import type { UiAccess } from './uiAccess';
import { readSmallJson } from './requestParts';

const OPEN_AGAIN = 'Open the app again with `letagents-desktop open` (or `npm start`).';

export const REFUSALS: Readonly<Record<UiSessionRefusal, string>> = {
  no_session: `This browser has no session with this LetAgents app. ${OPEN_AGAIN}`,
  used_or_expired: `This link was already used or has expired (links work once, within a minute). ${OPEN_AGAIN}`,
  reused: `This link had just been used, maybe by someone else on this computer, so every browser session was ended. ${OPEN_AGAIN}`,
  not_paired: 'This phone is not paired with LetAgents. On your computer open Settings → Phone and pair it.',
};

/** Answers a request to the session path. `onReused` ends every session (the code was raced for). */
export async function answerSession(req: IncomingMessage, res: ServerResponse, access: UiAccess, onReused: () => void): Promise<void> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    return answer(res, access.hasSession(req, headerText(req.headers[UI_KEY_HEADER])) ? { ok: true } : refusal('no_session'));
  }
  if (req.method !== 'POST') return answerStatus(res, 405, { ok: false, reason: 'no_session', message: 'Use GET or POST.' });
  // A JSON body: a cross-site form cannot send one without asking first (and Origin is checked anyway).
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return answerStatus(res, 415, { ok: false, reason: 'used_or_expired', message: 'Send {"code": "<one-time code>"} as application/json.' });
  }
  const code = await readCode(req);
  const redeemed = access.redeem(code);
  if (redeemed === 'ok') {
    res.setHeader('Set-Cookie', access.sessionCookie());
    return answer(res, { ok: true, key: access.sessionKey() });
  }
  if (redeemed === 'reused') {
    console.warn('browser host: a one-time link was used twice within a minute; every browser session was ended.');
    onReused();
    return answer(res, refusal('reused'));
  }
  return answer(res, refusal('used_or_expired'));
}

const headerText = (value: string | string[] | undefined): string | null => (typeof value === 'string' ? value : null);

const refusal = (reason: UiSessionRefusal): UiSessionAnswer => ({ ok: false, reason, message: REFUSALS[reason] });

function answer(res: ServerResponse, body: UiSessionAnswer): void {
  answerStatus(res, body.ok ? 200 : 401, body);
}

/** A session answer as JSON, never cached (the phone listener answers its pairing the same way). */
export function answerStatus(res: ServerResponse, status: number, body: UiSessionAnswer): void {
  setHardeningHeaders(res);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The `code` of a small JSON body; null for anything else. */
async function readCode(req: IncomingMessage): Promise<string | null> {
  const body = await readSmallJson(req);
  return typeof body?.code === 'string' ? body.code : null;
}
