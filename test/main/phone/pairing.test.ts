// Pairing a phone (issue 37) against the real app's phone listener on 127.0.0.2 over HTTPS
// (its own certificate, trusted exactly): a one-time code traded for a device key of the
// phone's own (only its hash is stored), and the attacks: a used code, an expired code,
// guessing (rate limit), a page from another origin on the LAN, DNS rebinding (Host), plain
// HTTP; turning phone access off closes the listener.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hashDeviceKey } from '../../../src/main/phone/phoneDevices';
import { opened, startPhoneApp, LAN, type PhoneApp } from './phoneHarness';

let app: PhoneApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

type Answer = { ok: boolean; key?: string; reason?: string; message?: string; pairing?: { fingerprint: string } };
/** The JSON answer, or a refusal in plain text (the guards answer before any JSON). */
const json = (body: string): Answer => {
  try {
    return JSON.parse(body) as Answer;
  } catch {
    return { ok: false, message: body };
  }
};

async function tryCode(a: PhoneApp, code: string, headers: Record<string, string> = {}) {
  const answer = await a.https('/api/session', { method: 'POST', headers: { 'content-type': 'application/json', origin: a.origin, ...headers }, body: JSON.stringify({ code, name: 'Pixel 8' }) });
  return { status: answer.status, ...json(answer.body) };
}

describe('pairing a phone', () => {
  it('trades a one-time code for a device key; the app keeps only its hash and lists the phone', async () => {
    app = await startPhoneApp();
    const before = await app.https('/api/session', { headers: { origin: app.origin } });
    const offer = await app.call('phone.pair', {});
    // The pairing page shows the certificate the phone was served, to compare with the desktop's.
    expect(json(before.body)).toMatchObject({ ok: false, reason: 'not_paired', pairing: { fingerprint: offer.fingerprint } });
    expect(offer.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(offer.link).toBe(`${app.origin}/#pair=${offer.code.replace('-', '')}`);
    expect(offer.qr.length).toBeGreaterThan(20);
    expect(offer.qr.every((row) => /^[01]+$/.test(row) && row.length === offer.qr.length)).toBe(true);

    // Typed in lower case without the dash, as a person may.
    const paired = await tryCode(app, offer.code.replace('-', '').toLowerCase());
    expect(paired).toMatchObject({ status: 200, ok: true });
    const key = paired.key!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const check = await app.https('/api/session', { headers: { origin: app.origin, 'x-letagents-key': key } });
    expect(json(check.body)).toEqual({ ok: true, phone: true });

    const status = await app.call('phone.status', {});
    expect(status.devices).toEqual([expect.objectContaining({ name: 'Pixel 8', pairedFrom: expect.stringMatching(/^127\./), lastSeenAt: expect.any(String) })]);
    const rows = app.host.app.core.store.read((q) => q.all<{ key_hash: string }>('SELECT key_hash FROM phone_devices'));
    expect(await rows).toEqual([{ key_hash: hashDeviceKey(key) }]);
  });

  it('refuses a code used before, and pairs nothing more with it', async () => {
    app = await startPhoneApp();
    const offer = await app.call('phone.pair', {});
    expect((await tryCode(app, offer.code)).ok).toBe(true);
    const again = await tryCode(app, offer.code);
    expect(again).toMatchObject({ status: 401, ok: false, reason: 'used_or_expired' });
    expect(again.message).toContain('already used');
    expect((await app.call('phone.status', {})).devices).toHaveLength(1);
  });

  it('refuses a code older than two minutes', async () => {
    app = await startPhoneApp();
    const offer = await app.call('phone.pair', {});
    app.advance(2 * 60_000 + 1);
    const late = await tryCode(app, offer.code);
    expect(late).toMatchObject({ status: 401, ok: false });
    expect(late.message).toContain('expired');
    expect((await app.call('phone.status', {})).devices).toEqual([]);
  });

  it('stops guessing: five wrong codes pause pairing for a minute and cancel the open codes', async () => {
    app = await startPhoneApp();
    const offer = await app.call('phone.pair', {});
    for (let i = 0; i < 5; i++) expect((await tryCode(app, `WRONG${i}AA`)).status).toBe(401);
    // Even the right code is refused now: the guesser cannot tell when they hit it.
    const limited = await tryCode(app, offer.code);
    expect(limited).toMatchObject({ status: 429, ok: false });
    expect(limited.message).toContain('Too many wrong codes');
    app.advance(61_000);
    // A minute on, the code the guesser was after works no more: the person makes a new one.
    expect((await tryCode(app, offer.code)).message).toContain('expired');
    const fresh = await app.call('phone.pair', {});
    expect((await tryCode(app, fresh.code)).ok).toBe(true);
    expect((await app.call('phone.status', {})).devices).toHaveLength(1);
  });

  it('refuses a page from another origin on the LAN: no pairing, no session check, no socket', async () => {
    app = await startPhoneApp();
    const key = await app.pairPhone();
    const offer = await app.call('phone.pair', {});
    for (const origin of ['https://192.168.1.66:8443', `https://127.0.0.3:${app.port}`, `http://${LAN}:${app.port}`, 'null']) {
      const pair = await tryCode(app, offer.code, { origin });
      expect(pair.status, origin).toBe(403);
      const check = await app.https('/api/session', { headers: { origin, 'x-letagents-key': key } });
      expect(check.status, origin).toBe(403);
      expect(await opened(app.socket(key, { origin })), origin).toBe(403);
    }
    // The code was not spent by the refused tries.
    expect((await tryCode(app, offer.code)).ok).toBe(true);
  });

  it('refuses a foreign Host (DNS rebinding) for the page, the session and the socket', async () => {
    app = await startPhoneApp();
    const key = await app.pairPhone();
    const host = `evil.example:${app.port}`;
    const page = await app.https('/', { headers: { host } });
    expect(page.status).toBe(421);
    expect(page.body).not.toContain('<title>');
    expect((await app.https('/api/session', { headers: { host, 'x-letagents-key': key } })).status).toBe(421);
    expect(await opened(app.socket(key, { host }))).toBe(421);
    expect((await app.https('/', {})).status).toBe(200);
  });

  it('speaks HTTPS only: plain HTTP gets a refusal naming the https address, and no page or pairing', async () => {
    app = await startPhoneApp();
    const offer = await app.call('phone.pair', {});
    const body = JSON.stringify({ code: offer.code, name: 'Plain' });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(app!.port, LAN, () => {
        socket.write(`POST /api/session HTTP/1.1\r\nHost: ${LAN}:${app!.port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain(`This address speaks HTTPS only: open https://${LAN}:${app.port}`);
    expect(answer).not.toContain('"key"');
    expect((await app.call('phone.status', {})).devices).toEqual([]);
    // The code is still good over HTTPS.
    expect((await tryCode(app, offer.code)).ok).toBe(true);
  });

  it('is off by default; turning it off closes the listener and every phone socket', async () => {
    app = await startPhoneApp();
    const key = await app.pairPhone();
    const socket = app.socket(key);
    expect(await opened(socket)).toBe('open');
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    const off = await app.call('phone.setup', { enabled: false });
    expect(off).toMatchObject({ enabled: false, listening: false, urls: [] });
    expect(await closed).toBe(1008);
    const refused = await new Promise<string>((resolve) => connect(app!.port, LAN).once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? '')).once('connect', () => resolve('connected')));
    expect(refused).toBe('ECONNREFUSED');
    expect((await app.call('phone.pair', {}).catch((e: Error) => e.message))).toContain('Turn phone access on first');
  });
});
