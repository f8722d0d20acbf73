// One-time pairing codes (issue 37): eight characters a person can type (no 0/O, 1/I/L), shown
// as ABCD-EFGH and carried in the QR link; each works once, for two minutes. Guessing is
// rate-limited: five wrong codes within a minute cancel every open code and refuse all tries
// for that minute (the person makes a new code), so a guesser gets five tries out of 31⁸.
import { randomInt } from 'node:crypto';

export const PAIRING_CODE_TTL_MS = 2 * 60_000;
export const WRONG_CODES_PER_MINUTE = 5;
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
/** Used codes are remembered this long, to tell "already used" from "wrong". */
const REMEMBER_USED_MS = 10 * 60_000;
const MAX_OPEN_CODES = 8;

export type Redeemed = 'ok' | 'used' | 'expired' | 'wrong' | 'limited';

export class PairingCodes {
  /** Open codes → when they run out. */
  private readonly open = new Map<string, number>();
  /** Used or run-out codes → what a later try with them is told, until when. */
  private readonly spent = new Map<string, { why: 'used' | 'expired'; until: number }>();
  private wrongTries: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** A new code (the oldest open one goes past a handful). */
  newCode(): { code: string; expiresAt: number } {
    this.forgetOld();
    let code = '';
    for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    if (this.open.size >= MAX_OPEN_CODES) this.open.delete(this.open.keys().next().value as string);
    const expiresAt = this.now() + PAIRING_CODE_TTL_MS;
    this.open.set(code, expiresAt);
    return { code, expiresAt };
  }

  /** Uses up `typed` (any case, with or without the dash and spaces): 'ok' once while it is fresh. */
  redeem(typed: unknown): Redeemed {
    this.forgetOld();
    if (this.limited()) return 'limited';
    const code = typeof typed === 'string' ? normalise(typed) : '';
    if (this.open.delete(code)) {
      this.spent.set(code, { why: 'used', until: this.now() + REMEMBER_USED_MS });
      return 'ok';
    }
    const spent = this.spent.get(code);
    if (spent) return spent.why;
    this.wrongTries.push(this.now());
    if (this.limited()) this.cancelAll();
    return 'wrong';
  }

  /** Every open code stops working (too many wrong tries, or the listener was turned off). */
  cancelAll(): void {
    for (const code of this.open.keys()) this.spent.set(code, { why: 'expired', until: this.now() + REMEMBER_USED_MS });
    this.open.clear();
  }

  /** Until when tries are refused (ms since the epoch), or null. */
  limitedUntil(): number | null {
    this.forgetOld();
    return this.limited() ? this.wrongTries[0] + 60_000 : null;
  }

  private limited(): boolean {
    return this.wrongTries.length >= WRONG_CODES_PER_MINUTE;
  }

  private forgetOld(): void {
    const now = this.now();
    this.wrongTries = this.wrongTries.filter((at) => at > now - 60_000);
    for (const [code, until] of this.open) {
      if (until > now) continue;
      this.open.delete(code);
      this.spent.set(code, { why: 'expired', until: now + REMEMBER_USED_MS });
    }
    for (const [code, { until }] of this.spent) if (until <= now) this.spent.delete(code);
  }
}

/** ABCD-EFGH, as shown. */
export function showCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

function normalise(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').slice(0, 32);
}
