// The app's API as the person calls it (as the UI does), for figures that drive an app host
// in process: a refused call throws with its message.
import { createApiImplementation, createDispatcher } from '../../src/main/api';
import type { AppHost } from '../../src/main/host';

export type PersonCall = (method: string, input: unknown) => Promise<Record<string, unknown>>;

export function personApi(app: AppHost['app'], env: NodeJS.ProcessEnv): PersonCall {
  const dispatch = createDispatcher(createApiImplementation(app, { env }));
  return async (method, input) => {
    const result = await dispatch(method, input);
    if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
    return result.value as Record<string, unknown>;
  };
}
