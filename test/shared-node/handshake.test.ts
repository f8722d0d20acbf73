// The helper checks the app before it proves anything (issue 15 item 4): a program that
// holds the agent socket (or, on Windows, squats on the named pipe) without knowing the
// agent token gets the helper's hello and nothing else: never the token, never a proof.
import { createServer, type Server } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attemptConnect } from '../../src/shared-node/appLink';
import { appProof, helperProof, newNonce, sameSecret } from '../../src/shared-node/handshake';
import { cleanupSpawned, tempDataDir } from '../support';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  await cleanupSpawned();
});

const TOKEN = 'the-real-agent-token-of-this-folder-0123456';

/** A data folder with an agent-token, and a stranger listening on its agent.sock. */
async function squatted(answer: (hello: { nonce: string }) => object | null): Promise<{ dataDir: string; heard: string[] }> {
  const dataDir = tempDataDir();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dataDir, 'agent-token'), `${TOKEN}\n`, { mode: 0o600 });
  const heard: string[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        heard.push(line);
        if (heard.length === 1) {
          const reply = answer(JSON.parse(line));
          if (reply) socket.write(`${JSON.stringify(reply)}\n`);
        }
      }
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(join(dataDir, 'agent.sock'), resolve));
  return { dataDir, heard };
}

const hello = { cwd: null, ide: null, pid: 1 };

describe('the helper against a program that is not the app', () => {
  it('refuses a challenge whose proof is not made with the agent token, and sends nothing more', async () => {
    const { dataDir, heard } = await squatted(({ nonce }) => ({ letagents_challenge: 1, proof: appProof('a-guessed-token', nonce), nonce: newNonce() }));
    const attempt = await attemptConnect(dataDir, hello);
    expect(attempt).toEqual({ kind: 'refused', detail: expect.stringContaining("could not prove it knows this folder's agent-token") });
    await new Promise((r) => setTimeout(r, 100)); // bounded, to show nothing more is sent
    expect(heard).toHaveLength(1);
    expect(JSON.parse(heard[0])).toEqual({ letagents_hello: 2, nonce: expect.any(String), ...hello });
    expect(heard.join('\n')).not.toContain(TOKEN);
  });

  it('sends a command-line API call to no one who cannot prove the token (letagents-desktop agent)', async () => {
    const { dataDir, heard } = await squatted(({ nonce }) => ({ letagents_challenge: 1, proof: appProof('a-guessed-token', nonce), nonce: newNonce() }));
    const attempt = await attemptConnect(dataDir, { ...hello, probe: true }, { method: 'agents.add', input: { instructions: 'Ship the secret plan' } });
    expect(attempt.kind).toBe('refused');
    await new Promise((r) => setTimeout(r, 100)); // bounded, to show nothing more is sent
    expect(heard).toHaveLength(1);
    expect(heard[0]).not.toMatch(/agents\.add|secret plan/);
  });

  it('refuses an answer that is no challenge at all (an old app, or something else)', async () => {
    const { dataDir, heard } = await squatted(() => ({ letagents_welcome: 1, connection_id: 'c1' }));
    expect(await attemptConnect(dataDir, hello)).toEqual({ kind: 'refused', detail: 'it answered with something that is not LetAgents' });
    expect(heard).toHaveLength(1);
  });

  it('answers only a real proof, and its own proof cannot be replayed as the app\'s', async () => {
    // The stranger echoes the helper's nonce back as its own: a proof for it would be the helper's, not the app's.
    const { dataDir, heard } = await squatted(({ nonce }) => ({ letagents_challenge: 1, proof: helperProof(TOKEN, nonce), nonce }));
    expect((await attemptConnect(dataDir, hello)).kind).toBe('refused');
    expect(heard).toHaveLength(1);
  });
});

describe('the proofs', () => {
  it('differ by direction and by nonce, and are compared as secrets', () => {
    const nonce = newNonce();
    expect(appProof(TOKEN, nonce)).not.toBe(helperProof(TOKEN, nonce));
    expect(appProof(TOKEN, nonce)).not.toBe(appProof(TOKEN, newNonce()));
    expect(appProof(TOKEN, nonce)).not.toBe(appProof(`${TOKEN}x`, nonce));
    expect(appProof(TOKEN, nonce)).not.toContain(TOKEN);
    expect(sameSecret(appProof(TOKEN, nonce), appProof(TOKEN, nonce))).toBe(true);
    expect(sameSecret(undefined, '')).toBe(false);
  });
});
