// The phone listener's own certificate: a self-signed X.509 v3 certificate for an ECDSA P-256
// key, naming the addresses the phone reaches the app at (subjectAltName), for TLS servers only.
// Node's crypto makes the key and the signature; certificateDer.ts writes the structure.
import { createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { bitString, boolean, explicit, implicitPrimitive, octetString, oid, sequence, set, time, unsignedInteger, utf8 } from './certificateDer';

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

/** Browsers refuse server certificates valid for longer than 825 days. */
export const CERTIFICATE_DAYS = 825;

export interface CertificateRequest {
  /** IP addresses and DNS names the certificate is for. */
  readonly names: readonly string[];
  readonly privateKey: KeyObject;
  readonly now?: Date;
}

/** The certificate as PEM. */
export function selfSignedCertificate({ names, privateKey, now = new Date() }: CertificateRequest): string {
  const algorithm = sequence(oid(OID.ecdsaWithSha256));
  const name = sequence(
    set(sequence(oid(OID.organization), utf8('LetAgents'))),
    set(sequence(oid(OID.commonName), utf8('LetAgents phone access'))),
  );
  const notBefore = new Date(now.getTime() - 60 * 60_000);
  const notAfter = new Date(now.getTime() + CERTIFICATE_DAYS * 86_400_000);
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const tbs = sequence(
    explicit(0, unsignedInteger(Buffer.from([2]))), // v3
    unsignedInteger(Buffer.concat([Buffer.from([0x01]), randomBytes(15)])),
    algorithm,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    spki,
    explicit(3, sequence(...extensions(names))),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, algorithm, bitString(signature));
  const base64 = der.toString('base64').replace(/(.{64})/g, '$1\n').trimEnd();
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

function extensions(names: readonly string[]): Buffer[] {
  const altNames = names.map((entry) => {
    const family = isIP(entry);
    // The phone listener binds IPv4 addresses only; anything else is a DNS name.
    if (family === 4) return implicitPrimitive(7, Buffer.from(entry.split('.').map(Number)));
    if (family === 6) throw new Error(`IPv6 addresses are not supported here: ${entry}`);
    return implicitPrimitive(2, Buffer.from(entry.toLowerCase(), 'ascii'));
  });
  const extension = (id: string, critical: boolean, value: Buffer) => sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value));
  return [
    extension(OID.basicConstraints, true, sequence()),
    // digitalSignature only (bit 0): an ECDSA TLS server signs its handshake.
    extension(OID.keyUsage, true, Buffer.from([0x03, 0x02, 0x07, 0x80])),
    extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth))),
    extension(OID.subjectAltName, false, sequence(...altNames)),
  ];
}
