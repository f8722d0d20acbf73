// Away from the desk (issue 37): the phone listener (a second, HTTPS listener on addresses the
// person picks, off by default), pairing a phone (a one-time code traded for a device key) and
// the paired devices.
import { z } from 'zod';
import { Timestamp } from './common';

/** An address the listener can take: a LAN interface's, or loopback for a reverse proxy the person runs. */
export const PhoneAddress = z.object({
  address: z.string(),
  /** "wlan0 (LAN)", "loopback: only for a reverse proxy on this computer". */
  label: z.string(),
  kind: z.enum(['lan', 'loopback']),
});

export const PhoneDevice = z.object({
  deviceId: z.string(),
  name: z.string(),
  pairedAt: Timestamp,
  /** The network address it paired from. */
  pairedFrom: z.string(),
  lastSeenAt: Timestamp.nullable(),
  lastSeenFrom: z.string().nullable(),
  /** Its page is open now. */
  connected: z.boolean(),
});

export const PhoneCertificateInfo = z.object({
  /** Made by the app on first use, or supplied by the person. */
  source: z.enum(['app', 'person']),
  /** SHA-256 of the certificate (AB:CD:…), as phone browsers show it. */
  fingerprint: z.string(),
  names: z.array(z.string()),
  validTo: Timestamp,
});

export const PhoneStatus = z.object({
  enabled: z.boolean(),
  /** Listening now on every chosen address (false while off, or when it could not). */
  listening: z.boolean(),
  /** Why it is not listening although turned on (an address gone, a port taken). */
  problem: z.string().nullable(),
  addresses: z.array(z.string()),
  available: z.array(PhoneAddress),
  port: z.number().int(),
  /** The origin the phone uses when a reverse proxy serves the app (https://laptop.tailnet.ts.net). */
  externalOrigin: z.string().nullable(),
  /** Where a phone reaches the app. */
  urls: z.array(z.string()),
  certificate: PhoneCertificateInfo.nullable(),
  devices: z.array(PhoneDevice),
});

/** An IPv4 address of this computer (a LAN interface's, or 127.x for a reverse proxy). */
const Address = z.string().trim().regex(/^\d{1,3}(\.\d{1,3}){3}$/, 'Give IPv4 addresses of this computer (for example 192.168.1.20).');

export const PhoneSetupPatch = z.strictObject({
  enabled: z.boolean().optional(),
  addresses: z.array(Address).min(1, 'Pick at least one address.').max(8).optional(),
  /** 1024–65535; 0 picks a free one each time it turns on (the phone's saved link then breaks at restarts). */
  port: z.number().int().refine((p) => p === 0 || (p >= 1024 && p <= 65_535), 'Pick a port from 1024 to 65535.').optional(),
  externalOrigin: z.string().trim().max(300).nullable().optional(),
});

export const PhoneCertificateChoice = z.discriminatedUnion('use', [
  z.strictObject({ use: z.literal('app') }),
  z.strictObject({ use: z.literal('person'), certFile: z.string().trim().min(1).max(4096), keyFile: z.string().trim().min(1).max(4096) }),
]);

export const PairingOffer = z.object({
  /** The link to open on the phone (the QR code holds it). */
  link: z.string(),
  /** The same code, to type on the pairing page: ABCD-EFGH. */
  code: z.string(),
  expiresAt: Timestamp,
  fingerprint: z.string(),
  /** The QR code of `link`: rows of "1" (dark) and "0". */
  qr: z.array(z.string()),
});

export const PhoneDeviceName = z.string().trim().min(1, 'Name the phone.').max(60, 'A phone name is at most 60 characters.');

export type PhoneAddress = z.infer<typeof PhoneAddress>;
export type PhoneDevice = z.infer<typeof PhoneDevice>;
export type PhoneStatus = z.infer<typeof PhoneStatus>;
export type PhoneSetupPatch = z.infer<typeof PhoneSetupPatch>;
export type PhoneCertificateChoice = z.infer<typeof PhoneCertificateChoice>;
export type PairingOffer = z.infer<typeof PairingOffer>;
