import { describe, expect, it } from 'vitest';
import type { IncomingHttpHeaders } from 'node:http';
import { checkLoopbackHost, checkLoopbackOrigin, checkLoopbackRequest } from '../../../src/main/gateway/httpGuards';

const PORT = 4567;
const TOKEN = 'secret-token';
const req = (headers: IncomingHttpHeaders, url = '/mcp') => ({ headers, url });
const good = { host: `127.0.0.1:${PORT}`, authorization: `Bearer ${TOKEN}` };

describe('loopback request guard', () => {
  it('accepts the bearer token on each loopback name of our port', () => {
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `LocalHost:${PORT}`, `[::1]:${PORT}`]) {
      expect(checkLoopbackRequest(req({ ...good, host }), { port: PORT, token: TOKEN })).toEqual({ ok: true });
    }
  });

  it('refuses a missing or wrong token with 401', () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, TOKEN, `Bearer ${TOKEN}x`]) {
      const result = checkLoopbackRequest(req({ host: good.host, authorization }), { port: PORT, token: TOKEN });
      expect(result).toEqual({
        ok: false,
        status: 401,
        message: 'Missing or wrong agent token: send "Authorization: Bearer <contents of agent-token in the data folder>".',
      });
    }
  });

  it('refuses a Host that is not our loopback address and port (DNS rebinding) with 421', () => {
    for (const host of ['evil.example', `evil.example:${PORT}`, '127.0.0.1:1', `192.168.1.2:${PORT}`, undefined, `127.0.0.1:${PORT}.evil.example`]) {
      const result = checkLoopbackRequest(req({ ...good, host }), { port: PORT, token: TOKEN });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.status).toBe(421);
        expect(result.message).toContain(`expected 127.0.0.1:${PORT}, localhost:${PORT} or [::1]:${PORT}`);
      }
    }
  });

  it('refuses a cross-site Origin with 403, even with the right token', () => {
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${PORT + 1}`, `https://127.0.0.1:${PORT}`, `http://evil.localhost:${PORT}`]) {
      const result = checkLoopbackRequest(req({ ...good, origin }), { port: PORT, token: TOKEN });
      expect(result).toEqual({ ok: false, status: 403, message: `Refused: cross-site request from Origin "${origin}".` });
    }
  });

  it('accepts no Origin, or our own loopback origin', () => {
    expect(checkLoopbackOrigin(req({}), PORT)).toEqual({ ok: true });
    for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`, `http://[::1]:${PORT}`]) {
      expect(checkLoopbackOrigin(req({ origin }), PORT)).toEqual({ ok: true });
    }
  });

  it('never takes the token from the URL, where logs and browser histories would keep it', () => {
    expect(checkLoopbackRequest(req({ host: good.host }, `/mcp?token=${TOKEN}`), { port: PORT, token: TOKEN })).toMatchObject({ ok: false, status: 401 });
    expect(checkLoopbackRequest(req({ host: good.host }, `/api/ws?token=${TOKEN}`), { port: PORT, token: TOKEN })).toMatchObject({ ok: false, status: 401 });
  });

  it('checks the Host alone for pages that carry no token', () => {
    expect(checkLoopbackHost(req({ host: `localhost:${PORT}` }), PORT)).toEqual({ ok: true });
    expect(checkLoopbackHost(req({ host: 'example.com' }), PORT).ok).toBe(false);
  });
});
