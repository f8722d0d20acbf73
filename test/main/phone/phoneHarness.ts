// An app with phone access on for tests (issue 37): the real host (SQLite in a temp data folder,
// an in-memory keychain), its phone listener on 127.0.0.2 (the stand-in for the LAN) serving a
// tiny page, and HTTPS and WebSocket clients that trust exactly the app's own certificate.
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import type { MethodName } from '../../../src/shared/bridge';
import type { MethodInput, MethodOutput } from '../../../src/shared/contract';
import { startAppHost, type AppHost } from '../../../src/main/host';
import { createMemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import { phoneCertPath } from '../../../src/main/phone/phoneCertificate';
import { readFileSync } from 'node:fs';
import { tempDir } from '../../support';

export const LAN = '127.0.0.2';

export interface PhoneApp {
  readonly host: AppHost;
  readonly origin: string;
  readonly port: number;
  readonly certPem: string;
  /** Advances the pairing codes' clock. */
  advance(ms: number): void;
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  /** An HTTPS request to the phone listener (Host and Origin as a phone's browser sends them, unless given). */
  https(path: string, options?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string; headers: Record<string, unknown> }>;
  /** Pairs through the listener as a phone does; returns the device key. */
  pairPhone(name?: string): Promise<string>;
  /** The page's socket with a device key (and the phone's Origin, unless given). */
  socket(key: string, headers?: Record<string, string>): WebSocket;
  close(): Promise<void>;
}

export async function startPhoneApp(): Promise<PhoneApp> {
  const dataDir = join(tempDir('la-phone-'), 'data');
  mkdirSync(dataDir, { recursive: true });
  const page = tempDir('la-phone-page-');
  mkdirSync(join(page, 'assets'));
  writeFileSync(join(page, 'index.html'), '<!doctype html><title>LetAgents</title>');
  let now = Date.now();
  const host = await startAppHost({ dataDir, env: process.env, home: tempDir('la-phone-home-'), secrets: createMemorySecretStore(), phonePageDir: page, phoneClock: () => now });
  const call = async <M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> => {
    const result = await host.dispatch(method, input);
    if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
    return result.value as MethodOutput<M>;
  };
  const status = await call('phone.setup', { enabled: true, addresses: [LAN], port: 0 });
  const port = status.port === 0 ? host.phone.port! : status.port;
  const origin = `https://${LAN}:${port}`;
  const certPem = readFileSync(phoneCertPath(dataDir), 'utf8');
  const https: PhoneApp['https'] = (path, options = {}) =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: LAN, port, path, method: options.method ?? 'GET', ca: certPem, headers: { host: `${LAN}:${port}`, ...options.headers },
          // A forged Host (DNS rebinding) would fail this client's name check before the app saw it:
          // the chain is still checked, the name is not, so the app's own refusal is what is tested.
          ...(options.headers?.host ? { checkServerIdentity: () => undefined } : {}),
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
  return {
    host,
    origin,
    port,
    certPem,
    advance: (ms) => void (now += ms),
    call,
    https,
    async pairPhone(name = 'Pixel 8') {
      const offer = await call('phone.pair', {});
      const answer = await https('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ code: offer.code, name }),
      });
      const parsed = JSON.parse(answer.body) as { ok: boolean; key?: string; message?: string };
      if (!parsed.ok || !parsed.key) throw new Error(`pairing failed: ${answer.body}`);
      return parsed.key;
    },
    socket: (key, headers = {}) =>
      new WebSocket(`wss://${LAN}:${port}/api/ws`, ['letagents', `key.${key}`], {
        ca: certPem, headers: { origin, ...headers }, ...(headers.host ? { checkServerIdentity: () => undefined } : {}),
      }),
    close: () => host.close(),
  };
}

/** Opens `socket`, or says how the upgrade was refused. */
export function opened(socket: WebSocket): Promise<'open' | number> {
  return new Promise((resolve) => {
    socket.once('open', () => resolve('open'));
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', () => resolve(0));
  });
}

/** Calls over a phone's socket: {id, method, input} → result. */
export function socketCaller(socket: WebSocket): (method: string, input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  let next = 1;
  const waiting = new Map<number, (result: never) => void>();
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as { id?: number; result?: never };
    if (typeof frame.id === 'number' && frame.result) waiting.get(frame.id)?.(frame.result);
  });
  return (method, input) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, input }));
    });
}
