// What the phone listener serves (issue 37): the same built renderer as the browser host, its
// session endpoint turned into pairing (POST {code, name} trades a one-time pairing code for a
// device key of the phone's own; GET with the key says whether it is still paired, else what
// the pairing page shows), and the WebSocket for a paired phone, whose calls go through a
// dispatcher that refuses every method a phone may not use (src/shared/phoneAccess.ts) and
// whose events are only those its views need. Each request first passes the Host and Origin
// guards. Revoking a device closes its sockets at once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { UI_KEY_HEADER, UI_SESSION_PATH, WEB_SOCKET_PATH, type ApiResult, type UiSessionAnswer } from '../../shared/bridge';
import { PhoneDeviceName } from '../../shared/model/phone';
import { isPhoneMethod, NOT_ON_PHONE, PHONE_EVENTS } from '../../shared/phoneAccess';
import type { AppEvent } from '../../shared/events';
import type { ApiCaller, Dispatch } from '../api';
import type { PhoneDeviceRow } from '../store/phoneQueries';
import { createSocketBridge, type SocketBridge } from '../web/socketBridge';
import { answerStatus } from '../web/sessionEndpoint';
import { answerPlain, type StaticFiles } from '../web/staticFiles';
import { pathOf, readSmallJson, refuseUpgrade, socketKey } from '../web/requestParts';
import type { PairingCodes } from './pairingCodes';
import { checkPhoneRequest, type PhoneOrigins } from './phoneGuards';
import type { PhoneDevices } from './phoneDevices';

const PAIR_AGAIN = 'On your computer open Settings → Phone (or run `letagents-desktop phone pair`) for a new code.';

export interface PhoneSiteDeps {
  readonly files: StaticFiles;
  readonly devices: PhoneDevices;
  readonly codes: PairingCodes;
  /** The Host and Origin values this listener answers to (they change with its settings). */
  origins(): PhoneOrigins;
  /** The certificate's fingerprint, for the pairing page. */
  fingerprint(): string;
  /** A dispatcher acting for this caller (the person on this phone). */
  dispatchFor(caller: ApiCaller): Dispatch;
  subscribe(listener: (event: AppEvent) => void): () => void;
  /** Behind a reverse proxy on loopback: the phone's address is the proxy's X-Forwarded-For. */
  readonly behindProxy: () => boolean;
  /** The network address a request came from. */
  peerOf(req: IncomingMessage): string;
  /** A device paired or its page connected or left (the desktop's list refreshes). */
  onDevicesChanged(): void;
}

export class PhoneSite {
  /** One socket bridge per connected device (its sockets close together when it is revoked). */
  private readonly bridges = new Map<string, SocketBridge>();

  constructor(private readonly deps: PhoneSiteDeps) {}

  handleRequest(req: IncomingMessage, res: ServerResponse): void {
    const verdict = checkPhoneRequest(req, this.deps.origins());
    if (!verdict.ok) return answerPlain(res, verdict.status, verdict.message);
    const path = pathOf(req);
    if (path === UI_SESSION_PATH) return void this.answerSession(req, res).catch(() => res.destroy());
    if (path === WEB_SOCKET_PATH) return answerPlain(res, 426, 'Upgrade to a WebSocket.');
    if (!this.deps.files.serve(req, res)) answerPlain(res, 404, 'Not found.');
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    void this.upgrade(req, socket, head).catch(() => socket.destroy());
  }

  /** Devices with a page open now. */
  connected(): Set<string> {
    return new Set([...this.bridges].filter(([, bridge]) => bridge.server.clients.size > 0).map(([id]) => id));
  }

  /** Closes a device's open pages at once (it was revoked). */
  closeDevice(deviceId: string, reason: string): void {
    const bridge = this.bridges.get(deviceId);
    if (!bridge) return;
    this.bridges.delete(deviceId);
    bridge.closeAll(1008, reason);
    bridge.close();
  }

  close(): void {
    for (const id of [...this.bridges.keys()]) this.closeDevice(id, 'Phone access was turned off on the computer.');
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    if (pathOf(req) !== WEB_SOCKET_PATH) return refuseUpgrade(socket, 404, 'Not found.');
    const verdict = checkPhoneRequest(req, this.deps.origins());
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, verdict.message);
    const device = await this.deps.devices.byKey(socketKey(req));
    if (!device) return refuseUpgrade(socket, 401, 'This phone is not paired (or was unpaired).');
    const bridge = this.bridgeFor(device, this.from(req));
    bridge.server.handleUpgrade(req, socket, head, (ws) => {
      bridge.server.emit('connection', ws, req);
      ws.on('close', () => this.deps.onDevicesChanged());
      this.deps.onDevicesChanged();
    });
    void this.deps.devices.seen(device.device_id, this.from(req)).catch(() => undefined);
  }

  private bridgeFor(device: PhoneDeviceRow, from: string): SocketBridge {
    const existing = this.bridges.get(device.device_id);
    if (existing) return existing;
    const caller: ApiCaller = { kind: 'phone', deviceId: device.device_id, deviceName: device.name };
    const dispatch = this.deps.dispatchFor(caller);
    const devices = this.deps.devices;
    // Every call is checked here, whatever the page asks: only the phone's methods go through.
    const onlyPhoneMethods: Dispatch = async (method, input) => {
      if (!isPhoneMethod(method)) return refusal(method);
      void devices.seen(device.device_id, from).catch(() => undefined);
      return dispatch(method, input);
    };
    const subscribe = (listener: (event: unknown) => void) => this.deps.subscribe((event) => PHONE_EVENTS[event.type] && listener(event));
    const bridge = createSocketBridge(onlyPhoneMethods, subscribe);
    this.bridges.set(device.device_id, bridge);
    return bridge;
  }

  private async answerSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const key = req.headers[UI_KEY_HEADER];
      const device = await this.deps.devices.byKey(typeof key === 'string' ? key : null);
      // Not paired yet is this page's first state, not a failure: the answer says what the pairing page shows.
      return answerStatus(res, 200, device ? { ok: true, phone: true } : this.notPaired(this.deps.codes.limitedUntil() ? 'Too many wrong codes were tried: wait a minute.' : null));
    }
    if (req.method !== 'POST') return answerStatus(res, 405, this.notPaired('Use GET or POST.'));
    // A JSON body: a cross-site form cannot send one without asking first (and Origin is checked anyway).
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return answerStatus(res, 415, this.notPaired('Send {"code", "name"} as application/json.'));
    const body = await readSmallJson(req);
    const name = PhoneDeviceName.safeParse(typeof body?.name === 'string' && body.name.trim() !== '' ? body.name : 'Phone');
    if (!name.success) return answerStatus(res, 400, this.notPaired(name.error.issues[0]?.message ?? 'Name the phone.'));
    const redeemed = this.deps.codes.redeem(body?.code);
    if (redeemed === 'limited') return answerStatus(res, 429, this.notPaired(`Too many wrong codes: pairing is paused for a minute, and the open codes no longer work. ${PAIR_AGAIN}`));
    if (redeemed === 'used') return answerStatus(res, 401, { ok: false, reason: 'used_or_expired', message: `This pairing code was already used. ${PAIR_AGAIN}` });
    if (redeemed === 'expired') return answerStatus(res, 401, { ok: false, reason: 'used_or_expired', message: `This pairing code has expired (codes work for 2 minutes). ${PAIR_AGAIN}` });
    if (redeemed === 'wrong') return answerStatus(res, 401, this.notPaired('That code is not right. Check the code on your computer and type it again.'));
    const { key } = await this.deps.devices.pair(name.data, this.from(req));
    this.deps.onDevicesChanged();
    return answerStatus(res, 200, { ok: true, key, phone: true });
  }

  private notPaired(message: string | null): UiSessionAnswer {
    return {
      ok: false,
      reason: 'not_paired',
      message: message ?? 'This phone is not paired with LetAgents yet. On your computer open Settings → Phone and pair it.',
      pairing: { fingerprint: this.deps.fingerprint() },
    };
  }

  /** Where a request came from: the phone's address (behind the person's proxy, the address it forwarded). */
  private from(req: IncomingMessage): string {
    const direct = this.deps.peerOf(req);
    const forwarded = req.headers['x-forwarded-for'];
    if (this.deps.behindProxy() && direct.startsWith('127.') && typeof forwarded === 'string' && forwarded.trim() !== '') {
      return forwarded.split(',')[0].trim().slice(0, 100);
    }
    return direct;
  }
}

function refusal(method: string): ApiResult {
  return { ok: false, error: { code: NOT_ON_PHONE, message: `${method} cannot be used from a paired phone; use LetAgents on your computer for it.` } };
}

