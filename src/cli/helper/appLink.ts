// Reaching the app from the helper: connect to the agent socket, send the hello, wait
// for the welcome. If nothing listens, start the app in the background and wait for it
// (10 s at most); after a drop, retry with backoff for up to 10 s.
import { createConnection, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { helperSocketPath, helperTokenPath } from './dataPaths';
import { launchAppInBackground, type LaunchedApp } from './launch';
import { LineSplitter } from './lines';
import { HELLO_TIMEOUT_MS, MAX_HELLO_BYTES, parseWelcome, type AppWelcome, type HelperHello } from './protocol';

export const APP_START_WAIT_MS = 10_000;
export const RECONNECT_WAIT_MS = 10_000;

export interface AppConnection {
  readonly socket: Socket;
  /** Bytes the app sent right after its welcome line. */
  readonly leftover: Buffer;
}

type Attempt =
  | { kind: 'connected'; connection: AppConnection; welcome: AppWelcome }
  /** Nothing listens on the socket. */
  | { kind: 'absent'; detail: string }
  /** Something listens but did not welcome this helper. */
  | { kind: 'refused'; detail: string };

export type HelloFields = Pick<HelperHello, 'cwd' | 'ide' | 'pid' | 'probe' | 'api'>;

const prefix = 'letagents-desktop mcp:';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class AppLink {
  readonly socketPath: string;

  constructor(readonly dataDir: string, private readonly hello: HelloFields) {
    this.socketPath = helperSocketPath(dataDir);
  }

  /** The first connection: starts the app when none answers. Returns a connection or an error text. */
  async connectOrStart(): Promise<AppConnection | string> {
    const first = await attemptConnect(this.socketPath, this.dataDir, this.hello);
    if (first.kind === 'connected') return first.connection;
    if (first.kind === 'refused') return this.refusedMessage(first.detail);
    let app: LaunchedApp;
    try {
      app = launchAppInBackground(this.dataDir);
    } catch (error) {
      return `${prefix} no LetAgents app is running for ${this.dataDir}, and starting one failed: ${errorText(error)}`;
    }
    process.stderr.write(`${prefix} started the LetAgents app in the background (pid ${app.pid ?? '?'}, log ${app.logPath})\n`);
    let exit: string | null = null;
    void app.exited.then((how) => (exit = how));
    const deadline = Date.now() + APP_START_WAIT_MS;
    while (Date.now() < deadline) {
      await sleep(100);
      const attempt = await attemptConnect(this.socketPath, this.dataDir, this.hello);
      if (attempt.kind === 'connected') return attempt.connection;
      // The app we started ended: another helper's app may have won the race, so the
      // attempt above decides; otherwise the log says why.
      if (exit !== null) {
        return `${prefix} no LetAgents app is running for ${this.dataDir}; the one started in the background ${exit}.\n${app.logTail()}`;
      }
    }
    return `${prefix} no LetAgents app answered on ${this.socketPath} within ${APP_START_WAIT_MS / 1000} s of starting one in the background. See ${app.logPath}.`;
  }

  /** After a drop: the app is restarting (or gone). Retries with backoff; never starts one. */
  async reconnect(stillWanted: () => boolean): Promise<AppConnection | string> {
    const deadline = Date.now() + RECONNECT_WAIT_MS;
    let delay = 50;
    while (Date.now() < deadline && stillWanted()) {
      await sleep(delay);
      delay = Math.min(delay * 2, 1_000);
      const attempt = await attemptConnect(this.socketPath, this.dataDir, this.hello);
      if (attempt.kind === 'connected') return attempt.connection;
    }
    return `${prefix} lost the connection to the LetAgents app (${this.socketPath}) and it did not come back within ${RECONNECT_WAIT_MS / 1000} s.`;
  }

  private refusedMessage(detail: string): string {
    return `${prefix} the LetAgents app for ${this.dataDir} did not accept this helper (${detail}). ` +
      `Run \`letagents-desktop doctor --data-dir "${this.dataDir}"\` for details.`;
  }
}

/** One try: connect, hello, welcome. */
export function attemptConnect(socketPath: string, dataDir: string, hello: HelloFields): Promise<Attempt> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    const lines = new LineSplitter(MAX_HELLO_BYTES);
    let settled = false;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners('data');
      if (attempt.kind !== 'connected') socket.destroy();
      resolve(attempt);
    };
    const timer = setTimeout(() => settle({ kind: 'refused', detail: `no answer to the hello within ${HELLO_TIMEOUT_MS / 1000} s` }), HELLO_TIMEOUT_MS);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const absent = ['ENOENT', 'ECONNREFUSED', 'ENOTDIR'].includes(error.code ?? '');
      settle(absent ? { kind: 'absent', detail: error.code ?? error.message } : { kind: 'refused', detail: error.message });
    });
    socket.once('close', () => settle({ kind: 'refused', detail: 'it closed the connection: the agent-token did not match' }));
    socket.once('connect', () => {
      let token: string;
      try {
        token = readFileSync(helperTokenPath(dataDir), 'utf8').trim();
      } catch (error) {
        return settle({ kind: 'refused', detail: `cannot read the agent-token: ${errorText(error)}` });
      }
      const message: HelperHello = { letagents_hello: 1, token, ...hello };
      socket.write(`${JSON.stringify(message)}\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      let received: string[];
      try {
        received = lines.push(chunk);
      } catch {
        return settle({ kind: 'refused', detail: 'it answered with something that is not a welcome' });
      }
      if (received.length === 0) return;
      const welcome = parseWelcome(received[0]);
      if (!welcome) return settle({ kind: 'refused', detail: 'it answered with something that is not a welcome' });
      const rest = received.slice(1).map((line) => `${line}\n`).join('');
      socket.removeAllListeners('close');
      settle({ kind: 'connected', connection: { socket, leftover: Buffer.concat([Buffer.from(rest), lines.takeRemainder()]) }, welcome });
    });
  });
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
