// A raw connection to the agent socket, for tests of the handshake protocol itself.
import { createConnection, type Socket } from 'node:net';
import { appProof, helperProof, newNonce } from '../../src/shared-node/handshake';

export interface RawSocket {
  readonly socket: Socket;
  /** Everything received so far. */
  received(): string;
  send(line: string | object): void;
  /** Resolves with the next complete line, or rejects after timeoutMs. */
  nextLine(timeoutMs?: number): Promise<string>;
  /** Resolves when the app closed the connection. */
  readonly closed: Promise<void>;
}

export function openRawSocket(path: string): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    let consumed = 0;
    const waiters: Array<() => void> = [];
    socket.on('data', (d) => {
      buffer += d;
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => buffer,
        send: (line) => socket.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`),
        closed,
        nextLine: (timeoutMs = 15_000) =>
          new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error(`no line within ${timeoutMs} ms; got ${JSON.stringify(buffer)}`)), timeoutMs);
            const check = () => {
              const nl = buffer.indexOf('\n', consumed);
              if (nl === -1) return void waiters.push(check);
              clearTimeout(timer);
              const line = buffer.slice(consumed, nl);
              consumed = nl + 1;
              res(line);
            };
            check();
          }),
      }),
    );
    socket.once('error', reject);
  });
}

/**
 * The agent-socket handshake as a helper runs it (src/shared-node/protocol.ts): hello, check
 * the app's proof, send ours (with `proofFields`, e.g. an API call). Resolves with the parsed welcome line.
 */
export async function shakeHands(
  raw: RawSocket, token: string, fields: Record<string, unknown> = {}, proofFields: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const nonce = newNonce();
  raw.send({ letagents_hello: 2, nonce, cwd: null, ide: null, pid: 1, ...fields });
  const challenge = JSON.parse(await raw.nextLine()) as { proof: string; nonce: string };
  if (challenge.proof !== appProof(token, nonce)) throw new Error(`the app did not prove it knows the token: ${JSON.stringify(challenge)}`);
  raw.send({ letagents_proof: 1, proof: helperProof(token, challenge.nonce), ...proofFields });
  return JSON.parse(await raw.nextLine()) as Record<string, unknown>;
}
