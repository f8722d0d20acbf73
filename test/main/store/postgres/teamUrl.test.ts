import { describe, expect, it } from 'vitest';
import { checkTeamUrl, isLoopback, TeamUrlError } from '../../../../src/main/store/postgres/teamUrl';

describe('the TLS rule for team URLs', () => {
  it('accepts a remote host with sslmode verify-full or require, and takes TLS out of the URL pg reads', () => {
    const full = checkTeamUrl('postgres://ada:s3cret@db.example.com:5432/team?sslmode=verify-full&application_name=x');
    expect(full).toMatchObject({ host: 'db.example.com', loopback: false, tls: { mode: 'verify-full', rootCertPath: null } });
    expect(full.connectionString).toBe('postgres://ada:s3cret@db.example.com:5432/team?application_name=x');
    expect(checkTeamUrl('postgresql://db.example.com/team?sslmode=require').tls?.mode).toBe('require');
  });

  it('refuses a remote host without TLS, saying how to fix it and never repeating the password', () => {
    for (const url of ['postgres://ada:s3cret@db.example.com/team', 'postgres://ada:s3cret@10.0.0.5/team?sslmode=prefer', 'postgres://ada:s3cret@db.example.com/team?sslmode=disable']) {
      let error: unknown;
      try {
        checkTeamUrl(url);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TeamUrlError);
      expect((error as TeamUrlError).code).toBe('team_url_invalid');
      expect((error as Error).message).toMatch(/sslmode=verify-full/);
      expect((error as Error).message).toMatch(/--allow-plaintext/);
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('allows plaintext to a remote host only when the person allows it', () => {
    expect(checkTeamUrl('postgres://db.example.com/team', { allowPlaintext: true }).tls).toBeNull();
  });

  it('allows plaintext to this computer: localhost, 127.x, ::1 and Unix sockets', () => {
    for (const url of [
      'postgres://u@localhost/team',
      'postgres://u@127.0.0.1:5433/team',
      'postgres://u@[::1]/team',
      'postgres://u@localhost/team?host=/var/run/postgresql',
    ]) {
      expect(checkTeamUrl(url).loopback, url).toBe(true);
    }
    // A host parameter overrides the URL's host, both ways.
    expect(() => checkTeamUrl('postgres://u@localhost/team?host=db.example.com')).toThrow(TeamUrlError);
    expect(isLoopback('127.0.0.1.example.com')).toBe(false);
    expect(isLoopback('localhost.example.com')).toBe(false);
  });

  it('refuses what is not a PostgreSQL URL, an unknown sslmode, and verify-ca without its CA', () => {
    expect(() => checkTeamUrl('not a url')).toThrow(/not a valid URL/);
    expect(() => checkTeamUrl('mysql://db.example.com/team')).toThrow(/postgres:\/\//);
    expect(() => checkTeamUrl('postgres://db.example.com/team?sslmode=always')).toThrow(/Unknown sslmode/);
    expect(() => checkTeamUrl('postgres://db.example.com/team?sslmode=verify-ca')).toThrow(/sslrootcert/);
  });
});
