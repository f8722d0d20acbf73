// The TLS rule for team URLs (team-rooms.md §2): a URL to a host other than this computer
// must use TLS (sslmode=verify-full, verify-ca or require); a plaintext one is refused with
// a clear error unless the person allows it knowingly. Pure: it reads no file, opens no
// socket, and never repeats the URL (it may hold a password) in an error.
import { StorageError } from '../storageErrors';

export type TlsMode = 'verify-full' | 'verify-ca' | 'require';

export interface TeamUrl {
  /** The URL without its TLS parameters: TLS is configured from `tls`, never by pg's own reading of sslmode. */
  readonly connectionString: string;
  /** The host as written (a socket folder for Unix sockets), for messages and `doctor`. */
  readonly host: string;
  readonly loopback: boolean;
  /** null: plaintext (allowed for loopback hosts, or when the person allowed it). */
  readonly tls: { readonly mode: TlsMode; readonly rootCertPath: string | null } | null;
  /**
   * A direct endpoint for LISTEN (`listen_url=`, what `team add --listen-url` stores), when the
   * URL itself names a transaction-mode pooler where LISTEN does not work; null: LISTEN on this one.
   */
  readonly listen: TeamUrl | null;
  /**
   * The query pool: at most `max` connections, each closed after `idleMs` unused; and how often
   * waiters re-check when LISTEN does not deliver (no direct endpoint): `pollMs`.
   */
  readonly pool: { readonly max: number; readonly idleMs: number; readonly pollMs: number };
}

/** The pool's defaults: small, and empty again a little while after the last query. */
export const POOL_DEFAULTS = { max: 4, idleSeconds: 10, pollSeconds: 5 } as const;
/** LetAgents' own URL parameters (pg never sees them). */
export const LISTEN_PARAM = 'listen_url';
const POOL_MAX_PARAM = 'pool_max';
const POOL_IDLE_PARAM = 'pool_idle_seconds';
const POLL_PARAM = 'poll_seconds';

export class TeamUrlError extends StorageError {
  constructor(message: string) {
    super('team_url_invalid', 'hard', message);
    this.name = 'TeamUrlError';
  }
}

const TLS_MODES: readonly string[] = ['verify-full', 'verify-ca', 'require'];
const PLAIN_MODES: readonly string[] = ['disable', 'allow', 'prefer'];
const TLS_PARAMS = ['sslmode', 'ssl', 'sslrootcert', 'sslcert', 'sslkey', 'uselibpqcompat', 'sslnegotiation'];

/** Checks a team URL against the TLS rule; TeamUrlError says what to change. */
export function checkTeamUrl(url: string, options: { allowPlaintext?: boolean } = {}): TeamUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TeamUrlError('The team URL is not a valid URL. Expected postgres://user:password@host:5432/database?sslmode=verify-full');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new TeamUrlError(`The team URL must start with postgres:// or postgresql:// (it starts with ${parsed.protocol}//).`);
  }
  // libpq: a `host` parameter overrides the URL's host; an empty host means the default Unix socket.
  const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname);
  const loopback = isLoopback(host);
  const sslmode = parsed.searchParams.get('sslmode');
  if (sslmode !== null && !TLS_MODES.includes(sslmode) && !PLAIN_MODES.includes(sslmode)) {
    throw new TeamUrlError(`Unknown sslmode "${sslmode}". Use sslmode=verify-full (best), verify-ca or require.`);
  }
  const mode = sslmode !== null && TLS_MODES.includes(sslmode) ? (sslmode as TlsMode) : null;
  const rootCertPath = parsed.searchParams.get('sslrootcert');
  if (mode === 'verify-ca' && !rootCertPath) {
    throw new TeamUrlError('sslmode=verify-ca needs sslrootcert=<file of the CA that signed the server certificate>.');
  }
  if (mode === null && !loopback && !options.allowPlaintext) {
    throw new TeamUrlError(
      `The team database at ${host || 'the default socket'} is not on this computer and the URL does not ask for TLS, so the ` +
        'password and every message would cross the network unencrypted. Add sslmode=verify-full (or sslmode=require) to the URL, ' +
        'or allow plaintext knowingly (--allow-plaintext).',
    );
  }
  const listenText = parsed.searchParams.get(LISTEN_PARAM);
  let listen: TeamUrl | null = null;
  if (listenText !== null) {
    try {
      listen = checkTeamUrl(listenText, options);
    } catch (error) {
      throw error instanceof TeamUrlError ? new TeamUrlError(`The listen URL (--listen-url): ${error.message}`) : error;
    }
    if (listen.listen) throw new TeamUrlError('The listen URL (--listen-url) cannot name a listen URL of its own.');
  }
  const pool = {
    max: whole(parsed.searchParams.get(POOL_MAX_PARAM), POOL_DEFAULTS.max, 1, 50, POOL_MAX_PARAM),
    idleMs: 1000 * whole(parsed.searchParams.get(POOL_IDLE_PARAM), POOL_DEFAULTS.idleSeconds, 1, 3600, POOL_IDLE_PARAM),
    pollMs: 1000 * whole(parsed.searchParams.get(POLL_PARAM), POOL_DEFAULTS.pollSeconds, 1, 600, POLL_PARAM),
  };
  for (const name of [...TLS_PARAMS, LISTEN_PARAM, POOL_MAX_PARAM, POOL_IDLE_PARAM, POLL_PARAM]) parsed.searchParams.delete(name);
  return { connectionString: parsed.toString(), host, loopback, tls: mode ? { mode, rootCertPath } : null, listen, pool };
}

/** A whole-number URL parameter within [min, max]; `fallback` when absent. */
function whole(text: string | null, fallback: number, min: number, max: number, name: string): number {
  if (text === null) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new TeamUrlError(`${name} must be a whole number from ${min} to ${max} (it is "${text}").`);
  return value;
}

/** The team URL with `listenUrl` as its direct LISTEN endpoint (what `team add --listen-url` stores in the keychain). */
export function withListenUrl(url: string, listenUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TeamUrlError('The team URL is not a valid URL. Expected postgres://user:password@host:5432/database?sslmode=verify-full');
  }
  parsed.searchParams.set(LISTEN_PARAM, listenUrl);
  return parsed.toString();
}

/** This computer: localhost, 127.0.0.0/8, ::1, or a Unix socket (a folder path, or no host at all). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === '' || h.startsWith('/') || h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
