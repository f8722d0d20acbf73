// What the API client needs from a bridge: send one call, hear events, report connection.
import type { ApiResult, MethodName } from '../../../shared/bridge';

export type ConnectionState = 'open' | 'connecting' | 'closed';

export interface Transport {
  readonly host: 'electron' | 'browser';
  invoke(method: MethodName, input: unknown): Promise<ApiResult>;
  /** Raw events as received; the client validates them. */
  onEvent(listener: (event: unknown) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
}
