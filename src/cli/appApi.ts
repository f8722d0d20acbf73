// One app API call from the command line: a probe over the running app's agent socket whose
// proof carries the call (sent only once the app proved it knows the agent-token), answered
// in the welcome line. The app allows only the managed-agent methods and app.status / app.stop
// this way (host.ts).
import type { ApiResult } from '../shared/bridge';
import { attemptConnect } from '../shared-node/appLink';

export class NoAppError extends Error {
  /** True when nothing listens at all (no app runs), false when something answered wrongly. */
  constructor(message: string, readonly absent = false) {
    super(message);
  }
}

export async function callApp(dataDir: string, method: string, input: unknown): Promise<ApiResult> {
  const attempt = await attemptConnect(dataDir, { cwd: null, ide: null, pid: process.pid, probe: true }, { method, input });
  if (attempt.kind === 'absent') {
    throw new NoAppError(`no LetAgents app is running for ${dataDir}. Start it (the desktop app, or \`letagents-desktop serve --data-dir "${dataDir}"\`) and try again.`, true);
  }
  if (attempt.kind === 'refused') throw new NoAppError(`the LetAgents app for ${dataDir} did not answer (${attempt.detail}).`);
  attempt.connection.socket.destroy();
  const result = attempt.welcome.api_result as ApiResult | undefined;
  if (!result || typeof result !== 'object' || typeof result.ok !== 'boolean') throw new NoAppError('the LetAgents app answered without a result (is it an older version?).');
  return result;
}
