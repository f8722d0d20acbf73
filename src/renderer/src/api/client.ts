// The renderer's typed API client over either bridge: call(method, input) resolves with the
// contract's output or throws ApiError with the core's code and plain-words message.
import type { MethodName } from '../../../shared/bridge';
import type { MethodInput, MethodOutput } from '../../../shared/contract';
import { AppEvent } from '../../../shared/events';
import type { ConnectionState, Transport } from './transport';

export class ApiError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
}

export interface ApiClient {
  readonly host: 'electron' | 'browser' | 'phone';
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  subscribe(listener: (event: AppEvent) => void): () => void;
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

export function createApiClient(transport: Transport): ApiClient {
  const listeners = new Set<(event: AppEvent) => void>();
  let detach: (() => void) | null = null;
  const receive = (raw: unknown) => {
    const parsed = AppEvent.safeParse(raw);
    if (!parsed.success) return; // an event from a newer core that this UI does not know
    for (const listener of [...listeners]) listener(parsed.data);
  };
  return {
    host: transport.host,
    async call(method, input) {
      const result = await transport.invoke(method, input);
      if (!result.ok) throw new ApiError(result.error.code, result.error.message);
      return result.value as MethodOutput<typeof method>;
    },
    subscribe(listener) {
      listeners.add(listener);
      detach ??= transport.onEvent(receive);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && detach) {
          detach();
          detach = null;
        }
      };
    },
    onConnection: (listener) => transport.onConnection(listener),
  };
}

/** A message people can read for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Try again.';
}
