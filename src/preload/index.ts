// Preload: exposes window.letagents, built from the contract's method list — one call
// function over ONE invoke channel and one event feed. Nothing else of Electron leaks.
import { contextBridge, ipcRenderer } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL, METHOD_NAMES, isMethodName, type ApiResult, type LetAgentsBridge } from '../shared/bridge';

const bridge: LetAgentsBridge = {
  methods: Object.freeze([...METHOD_NAMES]),
  invoke(method, input) {
    // Refuse names outside the contract here too: the main side checks again.
    if (!isMethodName(method)) {
      return Promise.resolve<ApiResult>({ ok: false, error: { code: 'unknown_method', message: 'Unknown method.' } });
    }
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, input) as Promise<ApiResult>;
  },
  onEvent(listener) {
    // The listener gets the event only, never the IpcRendererEvent (it holds the sender).
    const forward = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('letagents', bridge);
