// The Windows named pipe (issue 15 item 4): a random name, new at every start, recorded in
// a private file; never derived from the folder (users "malice" and "jalice" once mapped to
// one pipe). The claim logic runs here on Unix sockets standing in for pipes.
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOnFreshPipe, newPipeName, releasePipeName } from '../../../src/main/gateway/agentPipe';
import { AppAlreadyRunningError } from '../../../src/main/gateway/listening';
import { helperSocketPath, pipeNamePath, readPipeName } from '../../../src/shared-node/dataPaths';
import { cleanupSpawned, tempDataDir, tempDir } from '../../support';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  await cleanupSpawned();
});

function folder(): string {
  const dataDir = tempDataDir();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return dataDir;
}

// Unix sockets in a temp folder stand in for pipe names; the file reader skips the pipe-name shape check.
const unixOptions = {
  newName: () => join(tempDir('la-pipe-'), 'pipe'),
  readName: (dataDir: string) => (existsSync(pipeNamePath(dataDir)) ? readFileSync(pipeNamePath(dataDir), 'utf8').trim() || null : null),
};
const server = () => {
  const s = createServer();
  servers.push(s);
  return s;
};

describe('pipe names', () => {
  it('are random, not derived from the data folder', () => {
    const names = new Set(Array.from({ length: 50 }, newPipeName));
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(/^\\\\\.\\pipe\\letagents-desktop-[0-9a-f]{32}$/);
  });

  it('are read back only in their own shape, never as a remote or other path', () => {
    const dataDir = folder();
    expect(readPipeName(dataDir)).toBeNull();
    expect(helperSocketPath(dataDir, 'win32')).toBeNull();
    const name = newPipeName();
    writeFileSync(pipeNamePath(dataDir), `${name}\n`);
    expect(readPipeName(dataDir)).toBe(name);
    expect(helperSocketPath(dataDir, 'win32')).toBe(name);
    for (const bad of ['\\\\evil.example\\pipe\\letagents-desktop-0123456789abcdef0123456789abcdef', 'C:\\Users\\a\\agent.sock', `${name}x`, '']) {
      writeFileSync(pipeNamePath(dataDir), bad);
      expect(readPipeName(dataDir), bad).toBeNull();
    }
  });
});

describe('claiming a pipe at start', () => {
  it('listens on a fresh name and records it in a 0600 file; two folders (malice, jalice) never share one', async () => {
    const malice = folder();
    const jalice = folder();
    const a = await listenOnFreshPipe(server(), malice, unixOptions);
    const b = await listenOnFreshPipe(server(), jalice, unixOptions);
    expect(a).not.toBe(b);
    expect(readFileSync(pipeNamePath(malice), 'utf8')).toBe(`${a}\n`);
    expect(statSync(pipeNamePath(malice)).mode & 0o777).toBe(0o600);
  });

  it('refuses to start while the recorded pipe answers, and takes a new name over a stale one', async () => {
    const dataDir = folder();
    const first = server();
    const name = await listenOnFreshPipe(first, dataDir, unixOptions);
    await expect(listenOnFreshPipe(server(), dataDir, unixOptions)).rejects.toThrow(AppAlreadyRunningError);
    await new Promise((r) => first.close(r));
    const next = await listenOnFreshPipe(server(), dataDir, unixOptions);
    expect(next).not.toBe(name);
    expect(unixOptions.readName(dataDir)).toBe(next);
  });

  it('of two apps starting at once, only one keeps the record (the file is created exclusively)', async () => {
    const dataDir = folder();
    const results = await Promise.allSettled([listenOnFreshPipe(server(), dataDir, unixOptions), listenOnFreshPipe(server(), dataDir, unixOptions)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AppAlreadyRunningError);
  });

  it('removes the record on the way out only while it still names our pipe', async () => {
    const dataDir = folder();
    const name = await listenOnFreshPipe(server(), dataDir, unixOptions);
    writeFileSync(pipeNamePath(dataDir), 'a newer app\n');
    releasePipeName(dataDir, name, unixOptions.readName);
    expect(existsSync(pipeNamePath(dataDir))).toBe(true);
    writeFileSync(pipeNamePath(dataDir), `${name}\n`);
    releasePipeName(dataDir, name, unixOptions.readName);
    expect(existsSync(pipeNamePath(dataDir))).toBe(false);
  });
});
