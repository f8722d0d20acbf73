// Phone access (issue 37), as the person controls it: off by default; turned on, a second
// listener (HTTPS, its own certificate) runs on the addresses they picked; pairing codes,
// paired devices and revoking them; turned off, the listener and every phone socket close.
// Its settings stay in the settings table and it starts again with the app when left on.
import { appErrors } from '../domain/errors';
import type { PairingOffer, PhoneCertificateChoice, PhoneSetupPatch, PhoneStatus } from '../../shared/model/phone';
import { phoneItemHash, PHONE_AGENTS_HASH, phonePairHash } from '../../shared/phoneLinks';
import type { NeedsYouRef } from '../../shared/model/needsYou';
import type { ApiCaller, Dispatch, PhoneControl } from '../api';
import type { AppEvent } from '../../shared/events';
import type { Storage } from '../store/port';
import { getSetting, setSetting } from '../store/settingsQueries';
import { createStaticFiles, type StaticFiles } from '../web/staticFiles';
import { addressProblem, availableAddresses, isLoopback } from './phoneAddresses';
import { CertificateProblem, phoneCertificate, useAppCertificate, useSuppliedCertificate, type PhoneCertificate } from './phoneCertificate';
import { PairingCodes, showCode } from './pairingCodes';
import { qrRows } from './pairingQr';
import { PhoneDevices } from './phoneDevices';
import { phoneOrigins } from './phoneGuards';
import { startPhoneListener, type PhoneListener } from './phoneListener';
import { PhoneSite } from './phoneSite';

/** A fixed port, so a phone's saved link and home-screen icon keep working across restarts. */
export const DEFAULT_PHONE_PORT = 47821;
const KEYS = { enabled: 'phone.enabled', addresses: 'phone.addresses', port: 'phone.port', externalOrigin: 'phone.externalOrigin' } as const;

export interface PhoneServiceOptions {
  readonly store: Storage;
  readonly dataDir: string;
  /** The built renderer the phone is served (out/renderer); null: the page cannot be served. */
  readonly pageDir: string | null;
  dispatchFor(caller: ApiCaller): Dispatch;
  subscribe(listener: (event: AppEvent) => void): () => void;
  /** Tells the desktop's views that the status changed. */
  changed(): void;
  /** The pairing codes' clock (tests pass their own). */
  readonly now?: () => number;
}

interface Setup {
  enabled: boolean;
  addresses: string[];
  port: number;
  externalOrigin: string | null;
}

export class PhoneService implements PhoneControl {
  readonly codes: PairingCodes;
  private readonly devices: PhoneDevices;
  private readonly files: StaticFiles | null;
  private readonly site: PhoneSite;
  private listener: PhoneListener | null = null;
  private certificateNow: PhoneCertificate | null = null;
  private problem: string | null = null;
  private setupNow: Setup = { enabled: false, addresses: [], port: DEFAULT_PHONE_PORT, externalOrigin: null };
  /** Changes run one at a time (turning on while turning off…). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PhoneServiceOptions) {
    this.codes = new PairingCodes(options.now);
    this.devices = new PhoneDevices(options.store);
    this.files = options.pageDir ? createStaticFiles(options.pageDir) : null;
    this.site = new PhoneSite({
      files: this.files ?? { serve: () => false },
      devices: this.devices,
      codes: this.codes,
      origins: () => phoneOrigins(this.setupNow.addresses, this.listener?.port ?? this.setupNow.port, this.setupNow.externalOrigin),
      fingerprint: () => this.certificateNow?.fingerprint ?? '',
      dispatchFor: options.dispatchFor,
      subscribe: options.subscribe,
      behindProxy: () => this.setupNow.addresses.every(isLoopback) && this.setupNow.externalOrigin !== null,
      peerOf: (req) => this.listener?.peerOf(req) ?? 'unknown',
      onDevicesChanged: options.changed,
    });
  }

  /** Reads its settings and, when it was left on, listens again. */
  async start(): Promise<void> {
    this.setupNow = await this.readSetup();
    if (this.setupNow.enabled) await this.serialised(() => this.listen());
  }

  status(): Promise<PhoneStatus> {
    return this.serialised(() => this.statusNow());
  }

  setup(patch: PhoneSetupPatch): Promise<PhoneStatus> {
    return this.serialised(async () => {
      const next: Setup = {
        enabled: patch.enabled ?? this.setupNow.enabled,
        addresses: patch.addresses ? [...new Set(patch.addresses)] : this.setupNow.addresses,
        port: patch.port ?? this.setupNow.port,
        externalOrigin: patch.externalOrigin === undefined ? this.setupNow.externalOrigin : checkExternalOrigin(patch.externalOrigin),
      };
      if (next.addresses.length === 0) next.addresses = [defaultAddress()];
      const available = availableAddresses();
      for (const address of next.addresses) {
        const problem = addressProblem(address, available);
        if (problem) throw appErrors.invalidInput(problem);
      }
      if (next.enabled && !this.files) throw appErrors.notAvailable('The phone page is not built here (npm run build), so there is nothing to serve a phone.');
      await this.options.store.write(async (tx) => {
        await setSetting(tx, KEYS.enabled, next.enabled ? 'on' : 'off');
        await setSetting(tx, KEYS.addresses, JSON.stringify(next.addresses));
        await setSetting(tx, KEYS.port, String(next.port));
        await setSetting(tx, KEYS.externalOrigin, next.externalOrigin);
      });
      const moved = next.port !== this.setupNow.port || next.addresses.join() !== this.setupNow.addresses.join();
      this.setupNow = next;
      if (!next.enabled || moved) await this.stopListening();
      if (next.enabled && !this.listener) await this.listen();
      this.options.changed();
      return this.statusNow();
    });
  }

  certificate(choice: PhoneCertificateChoice): Promise<PhoneStatus> {
    return this.serialised(async () => {
      try {
        if (choice.use === 'person') useSuppliedCertificate(this.options.dataDir, choice.certFile, choice.keyFile);
        else useAppCertificate(this.options.dataDir);
      } catch (error) {
        if (error instanceof CertificateProblem) throw appErrors.invalidInput(error.message);
        throw error;
      }
      this.certificateNow = null;
      if (this.listener) {
        const cert = this.currentCertificate();
        this.listener.setCertificate(cert.certPem, cert.keyPem);
      }
      this.options.changed();
      return this.statusNow();
    });
  }

  pair(address?: string): Promise<PairingOffer> {
    return this.serialised(async () => {
      if (!this.listener) throw appErrors.invalidInput('Turn phone access on first (Settings → Phone, or `letagents-desktop phone on`).');
      const origin = this.originFor(address);
      const { code, expiresAt } = this.codes.newCode();
      const link = `${origin}/${phonePairHash(code)}`;
      return { link, code: showCode(code), expiresAt: new Date(expiresAt).toISOString(), fingerprint: this.currentCertificate().fingerprint, qr: qrRows(link) };
    });
  }

  revoke(deviceId: string): Promise<PhoneStatus> {
    return this.serialised(async () => {
      if (!(await this.devices.remove(deviceId))) throw appErrors.notFound('Paired phone');
      // Its open pages close now: an unpaired phone sees nothing more, not even the next event.
      this.site.closeDevice(deviceId, 'This phone was unpaired on the computer.');
      this.options.changed();
      return this.statusNow();
    });
  }

  /** Where an item opens on the phone (for notifications); null while phone access is off. */
  itemLink(ref: NeedsYouRef): string | null {
    return this.listener ? `${this.originFor()}/${phoneItemHash(ref)}` : null;
  }

  agentsLink(): string | null {
    return this.listener ? `${this.originFor()}/${PHONE_AGENTS_HASH}` : null;
  }

  /** The base64 SHA-256 of the certificate's public key (what a client pins), once it listens. */
  get spkiSha256(): string | null {
    return this.listener ? this.currentCertificate().spkiSha256 : null;
  }

  get port(): number | null {
    return this.listener?.port ?? null;
  }

  async close(): Promise<void> {
    await this.serialised(() => this.stopListening());
  }

  private async listen(): Promise<void> {
    this.problem = null;
    const { addresses, port } = this.setupNow;
    try {
      const cert = this.currentCertificate();
      this.listener = await startPhoneListener({ addresses, port, certPem: cert.certPem, keyPem: cert.keyPem, handler: this.site });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.problem =
        code === 'EADDRINUSE' ? `Port ${port} is taken on ${addresses.join(', ')}: choose another port.`
        : code === 'EADDRNOTAVAIL' ? `${addresses.join(', ')} is not an address of this computer now (a network changed?): choose again.`
        : `Could not listen on ${addresses.join(', ')}:${port}: ${(error as Error).message}`;
      console.warn(`phone access: ${this.problem}`);
    }
  }

  private async stopListening(): Promise<void> {
    this.site.close();
    this.codes.cancelAll();
    await this.listener?.close();
    this.listener = null;
  }

  /** The certificate for the chosen addresses (and the external origin's name), made or made again as needed. */
  private currentCertificate(): PhoneCertificate {
    const names = [...this.setupNow.addresses, 'localhost'];
    if (this.setupNow.externalOrigin) names.push(new URL(this.setupNow.externalOrigin).hostname);
    const fits = this.certificateNow && names.every((n) => this.certificateNow!.names.includes(n.toLowerCase()));
    if (!fits) this.certificateNow = phoneCertificate(this.options.dataDir, names);
    return this.certificateNow!;
  }

  private originFor(address?: string): string {
    const port = this.listener?.port ?? this.setupNow.port;
    if (address !== undefined) {
      if (!this.setupNow.addresses.includes(address)) throw appErrors.invalidInput(`Phone access does not listen on ${address} (it listens on ${this.setupNow.addresses.join(', ')}).`);
      return `https://${address}:${port}`;
    }
    if (this.setupNow.externalOrigin) return this.setupNow.externalOrigin;
    return `https://${this.setupNow.addresses[0]}:${port}`;
  }

  private async statusNow(): Promise<PhoneStatus> {
    const connected = this.site.connected();
    const rows = await this.devices.list();
    const port = this.listener?.port ?? this.setupNow.port;
    const urls = this.listener ? [...(this.setupNow.externalOrigin ? [this.setupNow.externalOrigin] : []), ...this.setupNow.addresses.map((a) => `https://${a}:${port}`)] : [];
    const cert = this.listener ? this.currentCertificate() : null;
    return {
      enabled: this.setupNow.enabled,
      listening: this.listener !== null,
      problem: this.setupNow.enabled ? this.problem : null,
      addresses: this.setupNow.addresses,
      available: availableAddresses(),
      port,
      externalOrigin: this.setupNow.externalOrigin,
      urls,
      certificate: cert ? { source: cert.source, fingerprint: cert.fingerprint, names: cert.names, validTo: cert.validTo } : null,
      devices: rows.map((row) => ({
        deviceId: row.device_id,
        name: row.name,
        pairedAt: row.paired_at,
        pairedFrom: row.paired_from,
        lastSeenAt: row.last_seen_at,
        lastSeenFrom: row.last_seen_from,
        connected: connected.has(row.device_id),
      })),
    };
  }

  private async readSetup(): Promise<Setup> {
    const stored = await this.options.store.read(async (q) => ({
      enabled: await getSetting(q, KEYS.enabled),
      addresses: await getSetting(q, KEYS.addresses),
      port: await getSetting(q, KEYS.port),
      externalOrigin: await getSetting(q, KEYS.externalOrigin),
    }));
    let addresses: string[] = [];
    try {
      const parsed = JSON.parse(stored.addresses ?? '[]') as unknown;
      if (Array.isArray(parsed)) addresses = parsed.filter((a): a is string => typeof a === 'string');
    } catch {
      addresses = [];
    }
    const port = Number(stored.port);
    return {
      enabled: stored.enabled === 'on',
      addresses: addresses.length > 0 ? addresses : [defaultAddress()],
      port: Number.isInteger(port) && port > 0 && port <= 65_535 ? port : DEFAULT_PHONE_PORT,
      externalOrigin: stored.externalOrigin,
    };
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** The first LAN address, else loopback. */
function defaultAddress(): string {
  return availableAddresses()[0].address;
}

/** An https origin without a path (the reverse proxy's), or null. */
function checkExternalOrigin(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw appErrors.invalidInput(`"${text}" is not a URL. The external origin is what the phone opens, e.g. https://laptop.tailnet-name.ts.net.`);
  }
  if (url.protocol !== 'https:') throw appErrors.invalidInput('The external origin must be https: (your reverse proxy serves it with its own certificate).');
  if (url.pathname !== '/' || url.search || url.hash || url.username) throw appErrors.invalidInput('Give only the origin (https://host[:port]), no path: the app must be served at the root.');
  return url.origin;
}
