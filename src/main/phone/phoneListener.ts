// The phone listener's sockets (issue 37): one per chosen address, all on one port, speaking
// HTTPS only. The first byte of a connection tells a TLS handshake from plain HTTP: TLS is
// opened here and handed to the HTTP server once secure; plain HTTP gets a short refusal naming
// the https:// address and nothing else (no page, no session, no pairing). Closing it ends every
// connection at once.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { createSecureContext, TLSSocket, type SecureContext } from 'node:tls';

/** A TLS record starts with this byte (a handshake). */
const TLS_HANDSHAKE = 0x16;
/** A connection that says nothing (or does not finish its handshake) this long is dropped. */
const SILENT_MS = 15_000;

export interface PhoneHandler {
  handleRequest(req: IncomingMessage, res: ServerResponse): void;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export interface PhoneListenerOptions {
  readonly addresses: readonly string[];
  /** 0 picks a free port (tests); the same port is then taken on every address. */
  readonly port: number;
  readonly certPem: string;
  readonly keyPem: string;
  readonly handler: PhoneHandler;
}

export interface PhoneListener {
  readonly port: number;
  /** Puts a new certificate in place for new connections. */
  setCertificate(certPem: string, keyPem: string): void;
  /** The network address a request came from. */
  peerOf(req: IncomingMessage): string;
  close(): Promise<void>;
}

export async function startPhoneListener(options: PhoneListenerOptions): Promise<PhoneListener> {
  const sockets = new Set<Socket>();
  const peers = new WeakMap<object, string>();
  let context: SecureContext = contextOf(options.certPem, options.keyPem);
  const http = createHttpServer((req, res) => options.handler.handleRequest(req, res));
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => options.handler.handleUpgrade(req, socket, head));
  const accept = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(SILENT_MS, () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      if (first[0] !== TLS_HANDSHAKE) return refusePlainHttp(socket);
      const secure = new TLSSocket(replayed(socket, first), { isServer: true, secureContext: context });
      peers.set(secure, (socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, ''));
      // A phone that does not trust the certificate yet ends its handshake: nothing to report.
      secure.on('error', () => secure.destroy());
      secure.once('secure', () => {
        socket.setTimeout(0);
        http.emit('connection', secure);
      });
    });
  };
  const servers: NetServer[] = [];
  let port = options.port;
  try {
    for (const address of options.addresses) {
      const server = createNetServer(accept);
      await listen(server, port, address);
      servers.push(server);
      port = (server.address() as { port: number }).port;
    }
  } catch (error) {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    port,
    setCertificate: (certPem, keyPem) => void (context = contextOf(certPem, keyPem)),
    peerOf: (req) => peers.get(req.socket) ?? 'unknown',
    close: () =>
      (closing ??= (async () => {
        const closed = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
        for (const socket of sockets) socket.destroy();
        http.close();
        await Promise.all(closed);
      })()),
  };
}

function contextOf(certPem: string, keyPem: string): SecureContext {
  return createSecureContext({ cert: certPem, key: keyPem, minVersion: 'TLSv1.2' });
}

function refusePlainHttp(socket: Socket): void {
  const host = socket.localAddress?.replace(/^::ffff:/, '') ?? 'this address';
  const text = `This address speaks HTTPS only: open https://${host}:${socket.localPort} instead. Nothing is served over plain HTTP.\n`;
  socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

/** The connection again from its first bytes, as a stream TLS can read (the bytes already read would be lost otherwise). */
function replayed(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read: () => void socket.resume(),
    write: (chunk: Buffer, _encoding, done) => void socket.write(chunk, done),
    final: (done) => void socket.end(done),
    destroy: (error, done) => {
      socket.destroy(error ?? undefined);
      done(error);
    },
  });
  stream.push(first);
  socket.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.on('end', () => stream.push(null));
  socket.on('close', () => stream.destroy());
  return stream;
}

function listen(server: NetServer, port: number, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
