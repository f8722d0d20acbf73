// Guards for every request to the phone listener (issue 37), at least as strict as the browser
// host's (docs/security.md): the Host must be one of the addresses it listens on (with its
// port) or the external origin's host (DNS rebinding: 421), and an Origin must be exactly one of
// its https origins (a page from another origin on the LAN: 403).
import type { IncomingMessage } from 'node:http';
import type { GuardResult } from '../gateway/httpGuards';

export interface PhoneOrigins {
  /** Hosts as a browser sends them: "192.168.1.20:47821", "laptop.tailnet.ts.net". */
  readonly hosts: ReadonlySet<string>;
  /** Origins as a browser sends them: "https://192.168.1.20:47821". */
  readonly origins: ReadonlySet<string>;
}

const OK: GuardResult = { ok: true };

/** The origins of the listener's addresses and of the external origin, if any. */
export function phoneOrigins(addresses: readonly string[], port: number, externalOrigin: string | null): PhoneOrigins {
  const hosts = new Set(addresses.map((a) => `${a}:${port}`));
  const origins = new Set(addresses.map((a) => `https://${a}:${port}`));
  if (externalOrigin) {
    const url = new URL(externalOrigin);
    hosts.add(url.host);
    origins.add(url.origin);
  }
  return { hosts, origins };
}

export function checkPhoneRequest(req: Pick<IncomingMessage, 'headers'>, allowed: PhoneOrigins): GuardResult {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowed.hosts.has(host)) {
    return { ok: false, status: 421, message: `Refused: Host "${req.headers.host ?? ''}" is not this app's phone address.` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowed.origins.has(origin.toLowerCase())) {
    return { ok: false, status: 403, message: `Refused: request from another origin ("${origin}").` };
  }
  return OK;
}
