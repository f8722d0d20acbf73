// Access to the browser UI (issue 15): a link never carries the agent token, only a
// one-time code (single use, 60 s). The page trades the code for a session: an HttpOnly,
// SameSite=Strict cookie holding the UI secret, which is random, new at every start and
// kept only in memory (here and in the browser). The cookie's name carries the port, so
// two apps on one machine keep their sessions apart. Cookies are not port-scoped: a browser
// hands this one to any listener on 127.0.0.1 (issue 24). So a session also needs the page
// key, a second random secret given only in the session answer's body; the page keeps it
// in its origin's storage (which is per port) and sends it with every check and socket.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { tokensEqual } from '../gateway/agentToken';

export const CODE_TTL_MS = 60_000;
/** Codes not yet used (and used ones remembered for their minute): the oldest go first. */
const MAX_CODES = 32;

/** 'reused': the code was used a moment ago, so someone else may have raced the person to it. */
export type Redeemed = 'ok' | 'reused' | 'unknown';

const randomSecret = () => randomBytes(32).toString('base64url');

export class UiAccess {
  readonly cookieName: string;
  private secret = randomSecret();
  private pageKey = randomSecret();
  /** Unused codes → when they expire. */
  private readonly live = new Map<string, number>();
  /** Used codes → until when a second use counts as a race rather than an old link. */
  private readonly spent = new Map<string, number>();

  constructor(port: number, private readonly now: () => number = Date.now, private readonly ttlMs = CODE_TTL_MS) {
    this.cookieName = `letagents_ui_${port}`;
  }

  /** A fresh one-time code. */
  newCode(): string {
    this.forgetOld();
    const code = randomBytes(24).toString('base64url');
    remember(this.live, code, this.now() + this.ttlMs);
    return code;
  }

  /** Uses up `code`: 'ok' once while it is fresh. */
  redeem(code: unknown): Redeemed {
    this.forgetOld();
    if (typeof code !== 'string') return 'unknown';
    if (this.live.delete(code)) {
      remember(this.spent, code, this.now() + this.ttlMs);
      return 'ok';
    }
    return this.spent.delete(code) ? 'reused' : 'unknown';
  }

  /** The Set-Cookie value that starts a session in this browser. */
  sessionCookie(): string {
    return `${this.cookieName}=${this.secret}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** The page key that goes with the cookie: only the page that traded a code learns it. */
  sessionKey(): string {
    return this.pageKey;
  }

  /** True when the request carries this run's session cookie and the page key (`key`, as the page sent it). */
  hasSession(req: Pick<IncomingMessage, 'headers'>, key: string | null): boolean {
    const header = req.headers.cookie;
    if (typeof header !== 'string' || key === null || !tokensEqual(key, this.pageKey)) return false;
    return header.split(';').some((pair) => {
      const at = pair.indexOf('=');
      return at > 0 && pair.slice(0, at).trim() === this.cookieName && tokensEqual(pair.slice(at + 1).trim(), this.secret);
    });
  }

  /** Every session ends: new secrets, so no cookie or page key given out so far opens a socket again. */
  endSessions(): void {
    this.secret = randomSecret();
    this.pageKey = randomSecret();
  }

  private forgetOld(): void {
    const now = this.now();
    for (const map of [this.live, this.spent]) for (const [code, until] of map) if (until <= now) map.delete(code);
  }
}

function remember(map: Map<string, number>, code: string, until: number): void {
  if (map.size >= MAX_CODES) map.delete(map.keys().next().value as string);
  map.set(code, until);
}
