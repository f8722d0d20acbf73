// `letagents-desktop stop [--data-dir D]`: stops the app running for the data folder (serve,
// or the desktop app), asked over the agent socket, and waits until it has ended. Agents'
// helpers keep their agents' places and reconnect once the app runs again; they do not start
// a stopped app again themselves (the app leaves `app-stopped` behind).
import { describeRunningApp, isAppRunStatus } from '../main/appRunStatus';
import { callApp, NoAppError } from './appApi';
import { helperDataDir } from '../shared-node/dataPaths';
import { parseCommandArgs } from './usage';

const STOP_WAIT_MS = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function runStop(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { 'data-dir': { type: 'string' } });
  const dataDir = helperDataDir(values['data-dir']);
  let answer;
  try {
    answer = await callApp(dataDir, 'app.stop', {});
  } catch (error) {
    if (!(error instanceof NoAppError)) throw error;
    if (error.absent) {
      process.stdout.write(`No LetAgents app is running for ${dataDir}; nothing to stop.\n`);
      return 0;
    }
    process.stderr.write(`letagents-desktop stop: ${error.message}\n`);
    return 1;
  }
  if (!answer.ok || !isAppRunStatus(answer.value)) {
    process.stderr.write(`letagents-desktop stop: the app did not stop: ${answer.ok ? 'it answered without its status (an older version?)' : answer.error.message}\n`);
    return 1;
  }
  const status = answer.value;
  const deadline = Date.now() + STOP_WAIT_MS;
  while (alive(status.pid)) {
    if (Date.now() > deadline) {
      process.stderr.write(`letagents-desktop stop: asked LetAgents (pid ${status.pid}) to stop, but it still runs after ${STOP_WAIT_MS / 1000} s.\n`);
      return 1;
    }
    await sleep(100);
  }
  process.stdout.write(
    `Stopped LetAgents for ${dataDir}: ${describeRunningApp(status)}.\n` +
      (status.agents > 0 ? 'Its agents keep their places and reconnect when the app runs again (`npm start`, or an agent started anew).\n' : ''),
  );
  return 0;
}
