// Reaching the app from the helper: connect to the agent socket, run the handshake (the
// app proves it knows the agent token before the helper proves it does), wait for the
// welcome. If nothing listens, start the app in the background and wait for it (10 s at
// most); after a drop, retry with backoff for as long as the agent runs.
import { createConnection, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { helperSocketPath, helperTokenPath, readAppStopped } from './dataPaths';
import { appProof, helperProof, newNonce, sameSecret } from './handshake';
import { launchAppInBackground, type LaunchedApp } from './launch';
import { LineSplitter } from './lines';
import {
  HELLO_TIMEOUT_MS, MAX_HELLO_BYTES, parseChallenge, parseWelcome, type ApiCall, type AppWelcome, type HelperHello, type HelperProof,
} from './protocol';

export const APP_START_WAIT_MS = 10_000;
/** Reconnecting after a drop: the first retry, and the longest pause between retries. */
const RECONNECT_FIRST_DELAY_MS = 50;
const RECONNECT_MAX_DELAY_MS = 2_000;
/** A crashed app is started again after this long without an answer (a restart takes less), then at most this often. */
export const RELAUNCH_AFTER_MS = 3_000;
const RELAUNCH_EVERY_MS = 30_000;
/** How long the app may take to answer a command-line API call, once the handshake is done. */
export const API_CALL_TIMEOUT_MS = 30_000;

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

export type HelloFields = Pick<HelperHello, 'cwd' | 'ide' | 'pid' | 'probe' | 'ui_link' | 'tools' | 'turn_key' | 'channel_flag'>;

const prefix = 'letagents-desktop mcp:';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class AppLink {
  constructor(readonly dataDir: string, private readonly hello: HelloFields) {}

  /** Where the app listens, for messages (on Windows the pipe changes with every app start). */
  get socketPath(): string {
    return helperSocketPath(this.dataDir) ?? `the named pipe recorded in ${this.dataDir}`;
  }

  /** The first connection: starts the app when none answers. Returns a connection or an error text. */
  async connectOrStart(): Promise<AppConnection | string> {
    const first = await attemptConnect(this.dataDir, this.hello);
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
      const attempt = await attemptConnect(this.dataDir, this.hello);
      if (attempt.kind === 'connected') return attempt.connection;
      // The app we started ended: another helper's app may have won the race, so the
      // attempt above decides; otherwise the log says why.
      if (exit !== null) {
        return `${prefix} no LetAgents app is running for ${this.dataDir}; the one started in the background ${exit}.\n${app.logTail()}`;
      }
    }
    return `${prefix} no LetAgents app answered on ${this.socketPath} within ${APP_START_WAIT_MS / 1000} s of starting one in the background. See ${app.logPath}.`;
  }

  /**
   * After a drop: reconnects with backoff for as long as the agent runs. When nothing has
   * answered for a while and the app did not stop on purpose (it crashed), starts it again as
   * at first start; a stopped app is waited for (a person starts it again).
   */
  async reconnect(stillWanted: () => boolean): Promise<AppConnection | string> {
    let delay = RECONNECT_FIRST_DELAY_MS;
    let nextLaunch = Date.now() + RELAUNCH_AFTER_MS;
    while (stillWanted()) {
      await sleep(delay);
      delay = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS);
      const attempt = await attemptConnect(this.dataDir, this.hello);
      if (attempt.kind === 'connected') return attempt.connection;
      if (attempt.kind !== 'absent' || Date.now() < nextLaunch || readAppStopped(this.dataDir) !== null || !stillWanted()) continue;
      nextLaunch = Date.now() + RELAUNCH_EVERY_MS;
      try {
        const app = launchAppInBackground(this.dataDir);
        process.stderr.write(`${prefix} the LetAgents app went away; started it again in the background (pid ${app.pid ?? '?'}, log ${app.logPath})\n`);
      } catch (error) {
        process.stderr.write(`${prefix} the LetAgents app went away, and starting it again failed: ${errorText(error)}\n`);
      }
    }
    return `${prefix} the agent ended while the LetAgents app was away.`;
  }

  /** What the agent's calls get while the app is away. */
  awayMessage(): string {
    const stopped = readAppStopped(this.dataDir);
    if (stopped === null) {
      return 'LetAgents is not running; it will reconnect by itself (this helper keeps trying, and starts the app again if ' +
        'nothing else does). Retry in a few seconds; your worker_id stays valid.';
    }
    return `LetAgents is not running (${stopped}); it will reconnect by itself once the app runs again: ` +
      `start it with \`npm start\` or \`letagents-desktop serve\`. Your worker_id stays valid.`;
  }

  private refusedMessage(detail: string): string {
    return `${prefix} the LetAgents app for ${this.dataDir} did not accept this helper (${detail}). ` +
      `Run \`letagents-desktop doctor --data-dir "${this.dataDir}"\` for details.`;
  }
}

/**
 * One try: connect, hello, the app's proof, our proof, welcome. A probe's `api` call rides
 * on our proof, so it is sent only to an app that proved it knows the agent-token.
 */
export function attemptConnect(dataDir: string, hello: HelloFields, api?: ApiCall): Promise<Attempt> {
  const socketPath = helperSocketPath(dataDir);
  if (socketPath === null) return Promise.resolve({ kind: 'absent', detail: 'no app has recorded its named pipe' });
  return new Promise((resolve) => {
    const socket = createConnection(socketPath);
    const lines = new LineSplitter(MAX_HELLO_BYTES);
    let token = '';
    let nonce = '';
    let stage: 'challenge' | 'welcome' = 'challenge';
    let settled = false;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners('data');
      if (attempt.kind !== 'connected') socket.destroy();
      resolve(attempt);
    };
    const refuse = (detail: string) => settle({ kind: 'refused', detail });
    let timer = setTimeout(() => refuse(`no answer to the hello within ${HELLO_TIMEOUT_MS / 1000} s`), HELLO_TIMEOUT_MS);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const absent = ['ENOENT', 'ECONNREFUSED', 'ENOTDIR'].includes(error.code ?? '');
      settle(absent ? { kind: 'absent', detail: error.code ?? error.message } : { kind: 'refused', detail: error.message });
    });
    socket.once('close', () =>
      refuse(stage === 'challenge' ? 'it closed the connection without answering the hello' : 'it closed the connection: it did not accept our proof of the agent-token'),
    );
    socket.once('connect', () => {
      try {
        token = readFileSync(helperTokenPath(dataDir), 'utf8').trim();
      } catch (error) {
        return refuse(`cannot read the agent-token: ${errorText(error)}`);
      }
      nonce = newNonce();
      const message: HelperHello = { letagents_hello: 2, nonce, ...hello };
      socket.write(`${JSON.stringify(message)}\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      let received: string[];
      try {
        received = lines.push(chunk);
      } catch {
        return refuse('it answered with something that is not LetAgents');
      }
      for (const [index, line] of received.entries()) {
        if (stage === 'challenge') {
          const challenge = parseChallenge(line);
          if (!challenge) return refuse('it answered with something that is not LetAgents');
          // Before we prove anything: the app must show it knows the token. A program squatting
          // on the socket cannot, and learns nothing from us.
          if (!sameSecret(challenge.proof, appProof(token, nonce))) {
            return refuse('it could not prove it knows this folder\'s agent-token (another program holds the socket, or the agent-token changed)');
          }
          const proof: HelperProof = { letagents_proof: 1, proof: helperProof(token, challenge.nonce), ...(api ? { api } : {}) };
          socket.write(`${JSON.stringify(proof)}\n`);
          stage = 'welcome';
          if (api) {
            // The call itself may take a moment (Stop waits for the agent's CLI to end).
            clearTimeout(timer);
            timer = setTimeout(() => refuse(`no answer to ${api.method} within ${API_CALL_TIMEOUT_MS / 1000} s`), API_CALL_TIMEOUT_MS);
          }
          continue;
        }
        const welcome = parseWelcome(line);
        if (!welcome) return refuse('it answered with something that is not a welcome');
        const rest = received.slice(index + 1).map((l) => `${l}\n`).join('');
        socket.removeAllListeners('close');
        return settle({ kind: 'connected', welcome, connection: { socket, leftover: Buffer.concat([Buffer.from(rest), lines.takeRemainder()]) } });
      }
    });
  });
}

/** Asks the running app for a one-time link to its browser UI (`letagents-desktop open`). */
export async function requestUiLink(dataDir: string): Promise<{ url: string } | { error: string }> {
  const attempt = await attemptConnect(dataDir, { cwd: null, ide: null, pid: process.pid, probe: true, ui_link: true });
  if (attempt.kind === 'absent') {
    return { error: `no LetAgents app is running for ${dataDir}. Start it with \`letagents-desktop serve --open --data-dir "${dataDir}"\` (or \`npm start\`).` };
  }
  if (attempt.kind === 'refused') return { error: `the LetAgents app for ${dataDir} did not answer as expected (${attempt.detail}).` };
  attempt.connection.socket.destroy();
  const url = attempt.welcome.ui_url;
  return url ? { url } : { error: `the LetAgents app running for ${dataDir} has no browser UI (the desktop app shows its own window).` };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
