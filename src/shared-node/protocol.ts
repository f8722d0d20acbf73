// The agent socket protocol between the stdio helper and the app's gateway: a handshake in
// which each side proves it knows the agent token without sending it (hello with the
// helper's nonce, the app's challenge with its proof and nonce, the helper's proof, the
// welcome), then newline-delimited JSON-RPC with heartbeat pings mixed in. A probe ends at
// the welcome; its proof may carry one app API call (`letagents-desktop agent …`), answered
// in the welcome, so nothing of the call reaches a program that could not prove the token.
// Pure data, no imports: the gateway (src/main/gateway) reads the same definitions.

/** The first line the helper sends. Anything else is closed with no reply. */
export interface HelperHello {
  /** 2: the handshake with proofs (version 1 sent the token itself and is refused). */
  readonly letagents_hello: 2;
  /** A fresh random value the app must answer with its proof (handshake.ts). */
  readonly nonce: string;
  /** The agent's working directory. */
  readonly cwd: string | null;
  /** `--ide` or LETAGENTS_AGENT_IDE. */
  readonly ide: string | null;
  readonly pid: number | null;
  /** `--tools`: which tools tools/list shows (`core`: rooms, messages, wait, tasks). Absent: all. */
  readonly tools?: ToolProfileName;
  /**
   * LETAGENTS_TURN_KEY: set by the app in the MCP config of a managed "Ask me" turn, so that
   * turn's connection (and no other) may ask the person to approve a tool use.
   */
  readonly turn_key?: string;
  /** Whether the agent was started with Claude Code's channel flag (channelFlag.ts); absent or null: unknown. */
  readonly channel_flag?: boolean | null;
  /** A probe (`doctor`, `open`, `agent`) only asks "is the app there and does it accept the token?"; no MCP follows. */
  readonly probe?: boolean;
  /** With probe: also ask for a one-time link to the browser UI (`letagents-desktop open`). */
  readonly ui_link?: boolean;
}

/** The environment variable the helper reads its turn key from (HelperHello.turn_key). */
export const TURN_KEY_ENV = 'LETAGENTS_TURN_KEY';

/** The tool profiles a helper may ask for (src/main/mcp/connection.ts). */
export const TOOL_PROFILE_NAMES = ['full', 'core'] as const;
export type ToolProfileName = (typeof TOOL_PROFILE_NAMES)[number];

/** The app's answer to a hello: its proof over the helper's nonce, and a nonce of its own. */
export interface AppChallenge {
  readonly letagents_challenge: 1;
  readonly proof: string;
  readonly nonce: string;
}

/** The helper's second line, sent only once the app's proof checked out. */
export interface HelperProof {
  readonly letagents_proof: 1;
  readonly proof: string;
  /** After a probe hello only: one app API call, answered in the welcome once this proof checks out. */
  readonly api?: ApiCall;
}

/** One app API call from the command line (`letagents-desktop agent …`). */
export interface ApiCall {
  /** An app API method name, e.g. `agents.list` (the app decides which it takes this way). */
  readonly method: string;
  readonly input: unknown;
}

/** The app's answer to a good proof; MCP traffic follows it. */
export interface AppWelcome {
  readonly letagents_welcome: 1;
  /** The connection id the MCP layer sees; null for a probe. */
  readonly connection_id: string | null;
  /** For a probe that asked for it: the browser UI with a one-time code; null when the app serves no browser UI. */
  readonly ui_url?: string | null;
  /** For a proof with an API call: its result, {ok:true,value} or {ok:false,error}. */
  readonly api_result?: unknown;
}

/** How long an app a helper started waits with no agent and no window before it exits. */
export const IDLE_EXIT_SECONDS = 600;

/** The quiet period: LETAGENTS_IDLE_EXIT_SECONDS when set (tests), else IDLE_EXIT_SECONDS. */
export function idleExitSeconds(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.LETAGENTS_IDLE_EXIT_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : IDLE_EXIT_SECONDS;
}

/** Sent by the helper every HEARTBEAT_INTERVAL_MS; the gateway consumes it. */
export const PING_LINE = '{"letagents_ping":1}';

/** The whole handshake (hello to welcome) must finish within this. */
export const HELLO_TIMEOUT_MS = 5_000;
export const HEARTBEAT_INTERVAL_MS = 30_000;
/** Two missed heartbeats (60 s of silence) close the connection (data-model.md §5.5). */
export const HEARTBEAT_MISSES = 2;
/** A hello is small; a longer first line is not a helper. */
export const MAX_HELLO_BYTES = 64 * 1024;
/** A probe's proof may carry an API call (`letagents-desktop agent add` with long instructions). */
export const MAX_PROBE_PROOF_BYTES = 256 * 1024;
/** One MCP message (the SDK's own stdio limit). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const NONCE_SHAPE = /^[A-Za-z0-9_-]{22,128}$/;
const PROOF_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** `area.method`, like the app API's names (src/shared/bridge.ts). */
const METHOD_SHAPE = /^[a-z][A-Za-z]{0,39}\.[a-z][A-Za-z]{0,39}$/;

function parseObject(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Parses a hello line; null when it is not a well-formed hello. */
export function parseHello(line: string): HelperHello | null {
  const v = parseObject(line);
  if (!v || v.letagents_hello !== 2 || typeof v.nonce !== 'string' || !NONCE_SHAPE.test(v.nonce)) return null;
  const optionalString = (x: unknown) => x === undefined || x === null || typeof x === 'string';
  if (!optionalString(v.cwd) || !optionalString(v.ide)) return null;
  if (v.pid !== undefined && v.pid !== null && typeof v.pid !== 'number') return null;
  if (v.tools !== undefined && !TOOL_PROFILE_NAMES.includes(v.tools as ToolProfileName)) return null;
  return {
    letagents_hello: 2,
    nonce: v.nonce,
    cwd: (v.cwd as string | null | undefined) || null,
    ide: (v.ide as string | null | undefined) || null,
    pid: (v.pid as number | null | undefined) ?? null,
    probe: v.probe === true,
    ...(v.tools !== undefined ? { tools: v.tools as ToolProfileName } : {}),
    ...(typeof v.turn_key === 'string' && NONCE_SHAPE.test(v.turn_key) ? { turn_key: v.turn_key } : {}),
    ...(typeof v.channel_flag === 'boolean' ? { channel_flag: v.channel_flag } : {}),
    ui_link: v.probe === true && v.ui_link === true,
  };
}

/** Parses the app's challenge; null when the line is not one. */
export function parseChallenge(line: string): AppChallenge | null {
  const v = parseObject(line);
  if (!v || v.letagents_challenge !== 1 || typeof v.proof !== 'string' || !PROOF_SHAPE.test(v.proof)) return null;
  if (typeof v.nonce !== 'string' || !NONCE_SHAPE.test(v.nonce)) return null;
  return { letagents_challenge: 1, proof: v.proof, nonce: v.nonce };
}

/** Parses the helper's proof; null when the line is not one (or carries a malformed API call). */
export function parseProof(line: string): HelperProof | null {
  const v = parseObject(line);
  if (!v || v.letagents_proof !== 1 || typeof v.proof !== 'string' || !PROOF_SHAPE.test(v.proof)) return null;
  if (v.api === undefined) return { letagents_proof: 1, proof: v.proof };
  const api = parseApiCall(v.api);
  return api ? { letagents_proof: 1, proof: v.proof, api } : null;
}

function parseApiCall(value: unknown): ApiCall | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { method, input, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof method !== 'string' || !METHOD_SHAPE.test(method)) return null;
  return { method, input: input === undefined ? {} : input };
}

/** Parses the welcome line; null when the line is not one. */
export function parseWelcome(line: string): AppWelcome | null {
  const v = parseObject(line);
  if (!v || v.letagents_welcome !== 1) return null;
  return {
    letagents_welcome: 1,
    connection_id: typeof v.connection_id === 'string' ? v.connection_id : null,
    ui_url: typeof v.ui_url === 'string' ? v.ui_url : null,
    ...('api_result' in v ? { api_result: v.api_result } : {}),
  };
}
