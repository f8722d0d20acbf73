// `letagents-desktop phone …` against a real `serve` (issue 37): on (on 127.0.0.2, the stand-in
// for the LAN), pair (a link, a QR code, a code to type, the fingerprint), a phone pairs over
// HTTPS, list (name, last seen, from where), revoke by name, off; and its usage errors.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PairingOffer, PhoneDevice, PhoneStatus } from '../../src/shared/model/phone';
import { phoneCertPath } from '../../src/main/phone/phoneCertificate';
import { cleanupSpawned, ensureCliBuilt, runCli, startServe, type ServeHandle } from '../support';

let serve: ServeHandle;

beforeAll(async () => {
  await ensureCliBuilt();
  serve = await startServe();
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  await cleanupSpawned();
});

const phone = (...args: string[]) => runCli(['phone', ...args, '--data-dir', serve.dataDir]);

/** Pairs as a phone does: POST the typed code over HTTPS, trusting exactly the app's certificate. */
function pairAsPhone(origin: string, code: string, name: string): Promise<{ status: number; body: string }> {
  const url = new URL(origin);
  const ca = readFileSync(phoneCertPath(serve.dataDir), 'utf8');
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: '/api/session', method: 'POST', ca, headers: { 'content-type': 'application/json', origin } },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ code, name }));
  });
}

describe('letagents-desktop phone', () => {
  it('turns phone access on, pairs a phone, lists it, revokes it and turns off', async () => {
    expect((await phone('list')).stdout).toContain('No phones are paired. Turn phone access on');
    const on = await phone('on', '--address', '127.0.0.2', '--port', '0');
    expect(on.stderr).toBe('');
    expect(on.code).toBe(0);
    const url = /Phone access is on at (https:\/\/127\.0\.0\.2:\d+)/.exec(on.stdout)![1];
    const fingerprint = new X509Certificate(readFileSync(phoneCertPath(serve.dataDir))).fingerprint256;
    expect(on.stdout).toContain(fingerprint);

    const text = await phone('pair');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${url}/#pair=`);
    expect(text.stdout).toMatch(new RegExp(`Or open ${url.replace(/\./g, '\\.')} and type the code [A-Z2-9]{4}-[A-Z2-9]{4}\\. It works once, until `));
    expect(text.stdout).toContain(fingerprint);
    // The QR code, drawn with half blocks.
    expect(text.stdout).toMatch(/[▀▄█]{20,}/);

    const offer = JSON.parse((await phone('pair', '--json')).stdout) as PairingOffer;
    expect((await pairAsPhone(url, offer.code, 'Ada’s Pixel')).status).toBe(200);
    const table = await phone('list');
    expect(table.stdout).toMatch(/^NAME\s+LAST SEEN\s+FROM\s+PAIRED\s+OPEN NOW\s+ID$/m);
    expect(table.stdout).toMatch(/^Ada’s Pixel\s+\S+Z\s+127\.\d+\.\d+\.\d+\s+\S+Z\s+no\s+[0-9a-f-]{36}$/m);
    const [device] = JSON.parse((await phone('list', '--json')).stdout) as PhoneDevice[];
    expect(device).toMatchObject({ name: 'Ada’s Pixel', connected: false });

    const revoked = await phone('revoke', 'ada’s pixel');
    expect(revoked).toMatchObject({ code: 0, stdout: 'Unpaired Ada’s Pixel: its key opens nothing now.\n' });
    expect(JSON.parse((await phone('list', '--json')).stdout)).toEqual([]);

    const off = await phone('off', '--json');
    expect((JSON.parse(off.stdout) as PhoneStatus)).toMatchObject({ enabled: false, listening: false });
    const refused = await phone('pair');
    expect(refused).toMatchObject({ code: 1, stderr: 'letagents-desktop phone: Turn phone access on first (Settings → Phone, or `letagents-desktop phone on`).\n' });
  });

  it('says what is wrong with the command line, with exit 2', async () => {
    expect((await phone('piar')).stderr).toContain('unknown action "piar"; did you mean pair?');
    expect(await phone('revoke')).toMatchObject({ code: 2 });
    expect((await phone('list', '--port', '1')).stderr).toContain('--port and --external-origin belong to `phone on`');
    expect((await phone('on', '--address', '8.8.8.8')).stderr).toContain('8.8.8.8 is not an address of this computer');
    expect((await phone('revoke', 'nobody')).stderr).toContain('no paired phone is named "nobody"');
  });
});
