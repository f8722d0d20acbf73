// The agent socket protocol between the stdio helper and the app's gateway: one hello
// line, one welcome line, then newline-delimited JSON-RPC with heartbeat pings mixed in.
// Pure data, no imports: the gateway (src/main/gateway) reads the same definitions.

/** The first line the helper sends. Anything else (or a wrong token) is closed with no reply. */
export interface HelperHello {
  readonly letagents_hello: 1;
  /** The contents of `<dataDir>/agent-token`. */
  readonly token: string;
  /** The agent's working directory. */
  readonly cwd: string | null;
  /** `--ide` or LETAGENTS_AGENT_IDE. */
  readonly ide: string | null;
  readonly pid: number | null;
  /** A probe (`doctor`) only asks "is the app there and does it accept the token?"; no MCP follows. */
  readonly probe?: boolean;
  /** One app API call from the command line (`letagents-desktop agent …`); answered in the welcome, no MCP follows. */
  readonly api?: { readonly method: string; readonly input: unknown };
}

/** The app's answer to a good hello; MCP traffic follows it. */
export interface AppWelcome {
  readonly letagents_welcome: 1;
  /** The connection id the MCP layer sees; null for a probe. */
  readonly connection_id: string | null;
  /** The answer to a hello's `api` call: {ok:true,value} or {ok:false,error}. */
  readonly api_result?: unknown;
}

/** Sent by the helper every HEARTBEAT_INTERVAL_MS; the gateway consumes it. */
export const PING_LINE = '{"letagents_ping":1}';

export const HELLO_TIMEOUT_MS = 5_000;
export const HEARTBEAT_INTERVAL_MS = 30_000;
/** Two missed heartbeats (60 s of silence) close the connection (data-model.md §5.5). */
export const HEARTBEAT_MISSES = 2;
/** A hello is small; a longer first line is not a helper. */
export const MAX_HELLO_BYTES = 64 * 1024;
/** One MCP message (the SDK's own stdio limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Parses a hello line; null when it is not a well-formed hello. */
export function parseHello(line: string): HelperHello | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (v.letagents_hello !== 1 || typeof v.token !== 'string' || v.token.length === 0) return null;
  const optionalString = (x: unknown) => x === undefined || x === null || typeof x === 'string';
  if (!optionalString(v.cwd) || !optionalString(v.ide)) return null;
  if (v.pid !== undefined && v.pid !== null && typeof v.pid !== 'number') return null;
  const api = v.api as { method?: unknown; input?: unknown } | undefined;
  if (api !== undefined && (typeof api !== 'object' || api === null || typeof api.method !== 'string')) return null;
  return {
    letagents_hello: 1,
    token: v.token,
    cwd: (v.cwd as string | null | undefined) || null,
    ide: (v.ide as string | null | undefined) || null,
    pid: (v.pid as number | null | undefined) ?? null,
    probe: v.probe === true,
    ...(api ? { api: { method: api.method as string, input: api.input ?? {} } } : {}),
  };
}

/** Parses the welcome line; null when the line is not one. */
export function parseWelcome(line: string): AppWelcome | null {
  try {
    const v = JSON.parse(line) as Record<string, unknown> | null;
    if (v && v.letagents_welcome === 1) {
      return {
        letagents_welcome: 1,
        connection_id: typeof v.connection_id === 'string' ? v.connection_id : null,
        ...('api_result' in v ? { api_result: v.api_result } : {}),
      };
    }
  } catch {
    // not JSON: not a welcome
  }
  return null;
}
