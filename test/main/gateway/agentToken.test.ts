import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureAgentToken, readAgentToken, tokensEqual } from '../../../src/main/gateway/agentToken';
import { cleanupSpawned, tempDataDir } from '../../support';

afterAll(cleanupSpawned);
const mode = (path: string) => statSync(path).mode & 0o777;

describe('agent token', () => {
  it('is created once as 32 random bytes in base64url, mode 0600 in a 0700 folder, and then reused', () => {
    const dir = tempDataDir();
    const token = ensureAgentToken(dir);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mode(join(dir, 'agent-token'))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(ensureAgentToken(dir)).toBe(token);
    expect(readAgentToken(dir)).toBe(token);
    expect(readFileSync(join(dir, 'agent-token'), 'utf8')).toBe(`${token}\n`);
  });

  it('differs between data folders', () => {
    expect(ensureAgentToken(tempDataDir())).not.toBe(ensureAgentToken(tempDataDir()));
  });

  it('tightens a token file and folder that others could read', () => {
    const dir = tempDataDir();
    const token = ensureAgentToken(dir);
    chmodSync(join(dir, 'agent-token'), 0o644);
    chmodSync(dir, 0o755);
    expect(ensureAgentToken(dir)).toBe(token);
    expect(mode(join(dir, 'agent-token'))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
  });

  it('replaces an empty token file', () => {
    const dir = tempDataDir();
    ensureAgentToken(dir);
    writeFileSync(join(dir, 'agent-token'), '');
    expect(readAgentToken(dir)).toBeNull();
    const token = ensureAgentToken(dir);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readAgentToken(dir)).toBe(token);
  });

  it('reads as null when there is no token yet', () => {
    expect(readAgentToken(tempDataDir())).toBeNull();
  });

  it('compares tokens exactly, whatever their lengths', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abd', 'abc')).toBe(false);
    expect(tokensEqual('ab', 'abc')).toBe(false);
    expect(tokensEqual('abcd', 'abc')).toBe(false);
    expect(tokensEqual('', 'abc')).toBe(false);
    expect(tokensEqual(null, 'abc')).toBe(false);
    expect(tokensEqual(undefined, 'abc')).toBe(false);
  });
});
