// The phone listener's certificate (issue 37): made on first use with a key only the person can
// read (0600), kept across runs (its public-key pin holds), made again for new addresses with the
// same key; a certificate the person supplies is checked (its key, its dates) and then used as
// is. openssl reads the app's certificate as a TLS server certificate for its addresses.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { phoneCertificate, phoneCertPath, phoneKeyPath, useAppCertificate, useSuppliedCertificate, CertificateProblem } from '../../../src/main/phone/phoneCertificate';
import { selfSignedCertificate } from '../../../src/main/phone/selfSignedCertificate';
import { tempDir } from '../../support';

const mode = (path: string) => statSync(path).mode & 0o777;

describe("the phone listener's certificate", () => {
  it('is made once with a private key only the person can read, and kept across runs', () => {
    const dir = tempDir('la-cert-');
    const first = phoneCertificate(dir, ['192.168.1.20', 'localhost']);
    expect(first).toMatchObject({ source: 'app', names: ['192.168.1.20', 'localhost'] });
    expect(first.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(mode(phoneKeyPath(dir))).toBe(0o600);
    expect(mode(phoneCertPath(dir))).toBe(0o600);
    const again = phoneCertificate(dir, ['192.168.1.20', 'localhost']);
    expect(again.fingerprint).toBe(first.fingerprint);
    // Moved to another network: a new certificate for the new address, with the same key (the pin holds).
    const moved = phoneCertificate(dir, ['10.0.0.7', 'localhost']);
    expect(moved.fingerprint).not.toBe(first.fingerprint);
    expect(moved.names).toEqual(['10.0.0.7', 'localhost']);
    expect(moved.spkiSha256).toBe(first.spkiSha256);
  });

  it('reads as a TLS server certificate for its addresses (openssl), valid for at most 825 days', () => {
    const dir = tempDir('la-cert-');
    phoneCertificate(dir, ['127.0.0.2', 'localhost']);
    const text = execFileSync('openssl', ['x509', '-in', phoneCertPath(dir), '-noout', '-text'], { encoding: 'utf8' });
    expect(text).toContain('IP Address:127.0.0.2, DNS:localhost');
    expect(text).toContain('TLS Web Server Authentication');
    expect(text).toMatch(/CA:FALSE/);
    expect(execFileSync('openssl', ['verify', '-CAfile', phoneCertPath(dir), phoneCertPath(dir)], { encoding: 'utf8' })).toContain(': OK');
    const cert = new X509Certificate(readFileSync(phoneCertPath(dir)));
    expect((Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / 86_400_000).toBeLessThanOrEqual(826);
  });

  it("uses the person's own certificate after checking it, and never replaces it; back to the app's on request", () => {
    const dir = tempDir('la-cert-');
    const theirs = tempDir('la-their-cert-');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    writeFileSync(join(theirs, 'cert.pem'), selfSignedCertificate({ names: ['laptop.example'], privateKey }));
    writeFileSync(join(theirs, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(theirs, 'other-key.pem'), other.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(theirs, 'old.pem'), selfSignedCertificate({ names: ['laptop.example'], privateKey, now: new Date('2020-01-01') }));

    expect(() => useSuppliedCertificate(dir, join(theirs, 'cert.pem'), join(theirs, 'other-key.pem'))).toThrow(CertificateProblem);
    expect(() => useSuppliedCertificate(dir, join(theirs, 'cert.pem'), join(theirs, 'other-key.pem'))).toThrow(/does not belong to the certificate/);
    expect(() => useSuppliedCertificate(dir, join(theirs, 'old.pem'), join(theirs, 'key.pem'))).toThrow(/ran out/);
    expect(() => useSuppliedCertificate(dir, join(theirs, 'missing.pem'), join(theirs, 'key.pem'))).toThrow(/Cannot read the certificate/);

    const supplied = useSuppliedCertificate(dir, join(theirs, 'cert.pem'), join(theirs, 'key.pem'));
    expect(supplied).toMatchObject({ source: 'person', names: ['laptop.example'] });
    expect(mode(phoneKeyPath(dir))).toBe(0o600);
    // Whatever addresses the listener takes, the person's certificate stays as it is.
    expect(phoneCertificate(dir, ['192.168.1.20']).fingerprint).toBe(supplied.fingerprint);
    useAppCertificate(dir);
    const own = phoneCertificate(dir, ['192.168.1.20']);
    expect(own.source).toBe('app');
    expect(own.fingerprint).not.toBe(supplied.fingerprint);
  });
});
