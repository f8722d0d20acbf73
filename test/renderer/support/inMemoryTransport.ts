// A transport for component tests: calls go through the real dispatcher (so the double is
// checked against the contract), events come straight from the double.
import { createDispatcher } from '../../../src/main/api/dispatcher';
import type { Transport, ConnectionState } from '../../../src/renderer/src/api/transport';
import type { FakeApi } from './fakeApi';

export interface TestTransport extends Transport {
  setConnection(state: ConnectionState): void;
  /** Outputs that broke the contract or threw unexpectedly: a correct double leaves this empty. */
  problems: string[];
}

export function inMemoryTransport(api: FakeApi, host: Transport['host'] = 'browser'): TestTransport {
  const problems: string[] = [];
  const dispatch = createDispatcher(api.impl, { onUnexpected: (method, error) => void problems.push(`${method}: ${String(error)}`) });
  const connection = new Set<(state: ConnectionState) => void>();
  return {
    host,
    invoke: (method, input) => dispatch(method, JSON.parse(JSON.stringify(input ?? {}))),
    onEvent: (listener) => api.subscribe((event) => listener(JSON.parse(JSON.stringify(event)))),
    onConnection(listener) {
      connection.add(listener);
      listener('open');
      return () => connection.delete(listener);
    },
    setConnection: (state) => connection.forEach((l) => l(state)),
    problems,
  };
}
