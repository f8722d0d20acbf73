// The proofs of the agent-socket handshake (protocol.ts): each side shows it knows the
// agent token by an HMAC over the other side's fresh nonce, so the token never crosses
// the socket and a program squatting on the socket (or named pipe) learns nothing from a
// helper: the helper checks the app's proof before it answers with its own.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const newNonce = (): string => randomBytes(32).toString('base64url');

const hmac = (token: string, text: string) => createHmac('sha256', token).update(text, 'utf8').digest('base64url');

/** What the app sends for the helper's nonce. */
export const appProof = (token: string, helperNonce: string): string => hmac(token, `letagents app\n${helperNonce}`);

/** What the helper sends for the app's nonce (a different label, so one proof never serves as the other). */
export const helperProof = (token: string, appNonce: string): string => hmac(token, `letagents helper\n${appNonce}`);

/** Compares two secrets in time that does not depend on where they differ (or their lengths). */
export function sameSecret(given: string | null | undefined, expected: string): boolean {
  const a = createHash('sha256').update(given ?? '').digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && typeof given === 'string';
}
