// What the shell needs from the app API: the one dispatcher (the same one the browser
// host's WebSocket uses) and the feed of UI events. The tray, notifications and the
// diagnostics dialog read through it too, so they show exactly what the window shows.
import type { Dispatch } from '../api/dispatcher';
import type { MethodName } from '../../shared/bridge';

export type Subscribe = (listener: (event: unknown) => void) => () => void;

export interface ShellApi {
  readonly dispatch: Dispatch;
  readonly subscribe: Subscribe;
}

/** Calls a method for the shell itself; null when it failed or is not available (the shell then shows nothing). */
export async function callApi(api: ShellApi, method: MethodName, input: unknown = {}): Promise<unknown> {
  const result = await api.dispatch(method, input);
  return result.ok ? result.value : null;
}
