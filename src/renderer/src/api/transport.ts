// What the API client needs from a bridge: send one call, hear events, report connection.
import type { ApiResult, MethodName } from '../../../shared/bridge';

/**
 * 'connecting': a short drop, retrying. After a few failed tries the browser tab finds out
 * why: 'session_ended' (the app answers, but this tab's session is gone: it restarted),
 * 'sessions_revoked' (the app ended every browser session itself: a link was used twice) or
 * 'unreachable' (nothing answers at this address: the app stopped, or runs elsewhere now).
 * It keeps retrying in every state.
 */
export type ConnectionState = 'open' | 'connecting' | 'session_ended' | 'sessions_revoked' | 'unreachable';

export interface Transport {
  /** 'phone': a paired phone's page on the phone listener (issue 37). */
  readonly host: 'electron' | 'browser' | 'phone';
  invoke(method: MethodName, input: unknown): Promise<ApiResult>;
  /** Raw events as received; the client validates them. */
  onEvent(listener: (event: unknown) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
}
