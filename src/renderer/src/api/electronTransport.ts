// Transport over the Electron preload's window.letagents (IPC underneath).
import type { LetAgentsBridge } from '../../../shared/bridge';
import type { Transport } from './transport';

export function createElectronTransport(bridge: LetAgentsBridge): Transport {
  return {
    host: 'electron',
    invoke: (method, input) => bridge.invoke(method, input),
    onEvent: (listener) => bridge.onEvent(listener),
    onConnection(listener) {
      // IPC is always there while the window lives.
      listener('open');
      return () => {};
    },
  };
}
