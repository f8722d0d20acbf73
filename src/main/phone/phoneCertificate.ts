// The phone listener's certificate in the data folder (issue 37): made by the app on first use
// (an ECDSA key, 0600, kept across runs, so its public-key pin holds; the certificate is made
// again when the addresses change or it nears its end) or supplied by the person (their PEM
// files, copied in; never replaced by the app). The fingerprint is what the desktop and the
// phone's pairing page show, to compare with what the phone's browser says.
import { createHash, createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selfSignedCertificate } from './selfSignedCertificate';

export const phoneKeyPath = (dataDir: string) => join(dataDir, 'phone-key.pem');
export const phoneCertPath = (dataDir: string) => join(dataDir, 'phone-cert.pem');
/** Present when the person supplied the certificate (the app then never makes one). */
const suppliedMarkerPath = (dataDir: string) => join(dataDir, 'phone-cert-supplied');

/** Made again this long before it runs out. */
const RENEW_BEFORE_MS = 30 * 86_400_000;

export interface PhoneCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  readonly source: 'app' | 'person';
  /** SHA-256 of the certificate, as browsers show it (AB:CD:…). */
  readonly fingerprint: string;
  /** Base64 SHA-256 of the public key (SPKI): what a client pins. */
  readonly spkiSha256: string;
  /** The addresses and names it is valid for. */
  readonly names: string[];
  readonly validTo: string;
}

/** A certificate the person supplied cannot be used; the message says why. */
export class CertificateProblem extends Error {}

/**
 * The certificate to serve for `names`: the person's when they supplied one, else the app's,
 * made (or made again) so that it names every one of them.
 */
export function phoneCertificate(dataDir: string, names: readonly string[], now = new Date()): PhoneCertificate {
  if (existsSync(suppliedMarkerPath(dataDir))) return described(readFileSync(phoneCertPath(dataDir), 'utf8'), readFileSync(phoneKeyPath(dataDir), 'utf8'), 'person');
  const keyPem = appKey(dataDir);
  const current = existsSync(phoneCertPath(dataDir)) ? readFileSync(phoneCertPath(dataDir), 'utf8') : null;
  if (current && stillFits(current, keyPem, names, now)) return described(current, keyPem, 'app');
  const certPem = selfSignedCertificate({ names: [...new Set(names)], privateKey: createPrivateKey(keyPem), now });
  writePrivate(phoneCertPath(dataDir), certPem);
  return described(certPem, keyPem, 'app');
}

/** The person's own certificate and key (PEM files): checked, then copied into the data folder. */
export function useSuppliedCertificate(dataDir: string, certFile: string, keyFile: string): PhoneCertificate {
  const certPem = readPem(certFile, 'certificate');
  const keyPem = readPem(keyFile, 'private key');
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new CertificateProblem(`${certFile} is not a PEM certificate.`);
  }
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new CertificateProblem(`${keyFile} is not a PEM private key (an encrypted key cannot be used).`);
  }
  if (!cert.checkPrivateKey(key)) throw new CertificateProblem(`The key in ${keyFile} does not belong to the certificate in ${certFile}.`);
  if (Date.parse(cert.validTo) <= Date.now()) throw new CertificateProblem(`The certificate in ${certFile} ran out on ${cert.validTo}.`);
  writePrivate(phoneCertPath(dataDir), certPem);
  writePrivate(phoneKeyPath(dataDir), keyPem);
  writePrivate(suppliedMarkerPath(dataDir), `${certFile}\n`);
  return described(certPem, keyPem, 'person');
}

/** Back to the app's own certificate (a new key: the person's is removed with its certificate). */
export function useAppCertificate(dataDir: string): void {
  if (!existsSync(suppliedMarkerPath(dataDir))) return;
  for (const path of [suppliedMarkerPath(dataDir), phoneCertPath(dataDir), phoneKeyPath(dataDir)]) rmSync(path, { force: true });
}

function appKey(dataDir: string): string {
  const path = phoneKeyPath(dataDir);
  if (existsSync(path)) {
    chmodSync(path, 0o600);
    return readFileSync(path, 'utf8');
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writePrivate(path, pem);
  return pem;
}

function stillFits(certPem: string, keyPem: string, names: readonly string[], now: Date): boolean {
  try {
    const cert = new X509Certificate(certPem);
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return false;
    if (Date.parse(cert.validTo) - now.getTime() < RENEW_BEFORE_MS) return false;
    const named = new Set(namesOf(cert));
    return names.every((name) => named.has(name));
  } catch {
    return false;
  }
}

function described(certPem: string, keyPem: string, source: 'app' | 'person'): PhoneCertificate {
  const cert = new X509Certificate(certPem);
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' });
  return {
    certPem,
    keyPem,
    source,
    fingerprint: cert.fingerprint256,
    spkiSha256: createHash('sha256').update(spki).digest('base64'),
    names: namesOf(cert),
    validTo: new Date(cert.validTo).toISOString(),
  };
}

/** "IP Address:127.0.0.2, DNS:phone.example" → the addresses and names. */
function namesOf(cert: X509Certificate): string[] {
  return (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .map((entry) => entry.replace(/^(IP Address|DNS):/, '').toLowerCase())
    .filter((name) => name !== '');
}

function readPem(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CertificateProblem(`Cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
}

function writePrivate(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
  chmodSync(path, 0o600);
}
