// `letagents-desktop open` and `serve --open` (issue 15 items 1–3): the browser is opened
// with a one-time code, never the agent token, so nothing lasting is on a command line (where
// any local user can read it from /proc) or in the browser's history; a running app is
// reused; and opening a link never goes through a shell.
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserCommand } from '../../src/cli/browserOpener';
import { probe } from '../support/httpProbe';
import { cleanupSpawned, cliBin, ensureCliBuilt, runCli, startServe, tempDataDir, tempDir, track, waitUntil } from '../support';

beforeAll(ensureCliBuilt, 120_000);
afterAll(cleanupSpawned);

/**
 * Stand-ins for the browser openers: they record their arguments instead of opening anything,
 * then exit with `exitCode` (xdg-open exits 3 on a machine with no browser).
 */
function recordingOpeners(exitCode = 0): { env: NodeJS.ProcessEnv; opened: () => string[] } {
  const bin = tempDir('la-openers-');
  const log = join(bin, 'opened.txt');
  for (const name of ['xdg-open', 'open']) {
    writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexit ${exitCode}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return { env: { PATH: `${bin}:${process.env.PATH}` }, opened: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

const redeem = (port: number, url: string) =>
  probe(port, {
    method: 'POST',
    path: '/api/session',
    headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ code: new URLSearchParams(new URL(url).hash.slice(1)).get('code') }),
  });

describe('letagents-desktop open', () => {
  it('opens the running app with a fresh one-time code that works once; the token is on no command line', async () => {
    const serve = await startServe();
    const openers = recordingOpeners();
    const result = await runCli(['open', '--data-dir', serve.dataDir], { env: openers.env });
    expect(result).toMatchObject({ code: 0, stdout: `Opened LetAgents (${serve.dataDir}) in your browser.\n`, stderr: '' });
    await waitUntil(() => openers.opened().length === 1, 15_000, 'the opener to run');
    const [url] = openers.opened();
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${serve.port}/#code=[A-Za-z0-9_-]{32}$`));
    expect(url).not.toBe(serve.uiUrl);
    expect(url).not.toContain(serve.token);
    expect((await redeem(serve.port, url)).status).toBe(200);
    expect((await redeem(serve.port, url)).status).toBe(401);
    await serve.stop();
  });

  it('prints the one-time link, and does not claim success, when no browser could be opened', async () => {
    const serve = await startServe();
    const headless = recordingOpeners(3);
    const result = await runCli(['open', '--data-dir', serve.dataDir], { env: headless.env });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('Opened LetAgents');
    expect(result.stdout).toContain('Could not open a browser: xdg-open exited with code 3 (no browser to open it?).');
    const url = /\n {2}(http:\/\/\S+)\n/.exec(result.stdout)?.[1];
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${serve.port}/#code=[A-Za-z0-9_-]{32}$`));
    // The printed link is the one the opener was given, and it still works once.
    expect(headless.opened()).toEqual([url]);
    expect((await redeem(serve.port, url!)).status).toBe(200);
    await serve.stop();
  });

  it('--print prints a fresh one-time link and opens nothing', async () => {
    const serve = await startServe();
    const openers = recordingOpeners();
    const result = await runCli(['open', '--print', '--data-dir', serve.dataDir], { env: openers.env });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${serve.port}/#code=[A-Za-z0-9_-]{32}\n$`));
    expect(openers.opened()).toEqual([]);
    expect((await redeem(serve.port, result.stdout.trim())).status).toBe(200);
    await serve.stop();
  });

  it('serve --open on a machine with no browser prints the link to open by hand', async () => {
    const headless = recordingOpeners(3);
    const dataDir = tempDataDir();
    const serve = await startServe({ dataDir, args: ['--open'], env: headless.env });
    // With --json the hand-opening text goes to stderr, so the JSON line stays alone on stdout.
    await waitUntil(() => serve.output().stderr.includes('Could not open a browser'), 10_000, 'serve to say the browser did not open');
    const url = /Open this one-time link yourself \(single use, valid 60 s\):\n {2}(\S+)/.exec(serve.output().stderr)?.[1];
    expect(headless.opened()).toEqual([url]);
    expect((await redeem(serve.port, url!)).status).toBe(200);
    await serve.stop();
  });

  it('serve --open (what npm start runs without Electron) shows one link, the one that works: none when the browser took it (issue 35)', async () => {
    for (const exitCode of [3, 0]) {
      const openers = recordingOpeners(exitCode);
      // Its stderr is not read: ignored, so a full pipe can never block serve.
      const child = track(spawn(process.execPath, [cliBin, 'serve', '--open', '--port', '0', '--data-dir', tempDataDir()], { env: { ...process.env, ...openers.env }, stdio: ['ignore', 'pipe', 'ignore'] }));
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      try {
        await waitUntil(() => openers.opened().length === 1 && stdout.includes('Press Ctrl-C to stop.') && (exitCode === 0 || stdout.includes('Open this one-time link yourself')), 20_000, 'serve to open its UI');
        const links = stdout.match(/http:\/\/127\.0\.0\.1:\d+\/#code=[A-Za-z0-9_-]+/g) ?? [];
        expect(stdout).toContain('UI:           opening it in your browser (`letagents-desktop open` opens it again)');
        // No browser: the link shown is the one the opener was given (unused, so it still works); a browser: none.
        expect(links).toEqual(exitCode === 0 ? [] : openers.opened());
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      }
    }
  });

  it('says so, and opens nothing, when no app runs for the folder', async () => {
    const openers = recordingOpeners();
    const dataDir = tempDataDir();
    const result = await runCli(['open', '--data-dir', dataDir], { env: openers.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `letagents-desktop open: no LetAgents app is running for ${dataDir}. Start it with \`letagents-desktop serve --open --data-dir "${dataDir}"\` (or \`npm start\`).\n`,
    );
    expect(openers.opened()).toEqual([]);
  });

  it('serve --open for a folder whose app already runs opens that app instead of failing', async () => {
    const serve = await startServe();
    const openers = recordingOpeners();
    const second = await runCli(['serve', '--open', '--data-dir', serve.dataDir], { env: openers.env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`LetAgents is already running for ${serve.dataDir}; opening it.`);
    await waitUntil(() => openers.opened().length === 1, 15_000, 'the opener to run');
    expect(openers.opened()[0]).toMatch(/#code=[A-Za-z0-9_-]{32}$/);
    expect(openers.opened()[0]).not.toContain(serve.token);
    await serve.stop();
  });
});

describe('the browser opener\'s environment (issue 24 item 11)', () => {
  /** An opener that saves its whole environment. */
  function envRecordingOpener(): { PATH: string; recorded: () => string | null } {
    const bin = tempDir('la-openers-');
    const envLog = join(bin, 'env.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nenv > '${envLog}.part' && mv '${envLog}.part' '${envLog}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    return { PATH: `${bin}:${process.env.PATH}`, recorded: () => (existsSync(envLog) ? readFileSync(envLog, 'utf8') : null) };
  }
  const appSettings = { LETAGENTS_TEAM_URL_ACME: 'postgres://ada:hunter2-secret@127.0.0.1:1/acme', LETAGENTS_ANYTHING: 'x' };
  const leaked = (env: string) => env.split('\n').filter((line) => line.startsWith('LETAGENTS_') || line.includes('hunter2-secret'));

  it('serve --open with a team URL (and its password) in its environment: the opener it starts gets no LETAGENTS_* variable', async () => {
    const opener = envRecordingOpener();
    const child = track(
      spawn(process.execPath, [cliBin, 'serve', '--open', '--json', '--port', '0', '--data-dir', tempDataDir()], {
        env: { ...process.env, ...appSettings, PATH: opener.PATH },
        stdio: 'ignore',
      }),
    );
    try {
      await waitUntil(() => opener.recorded() !== null, 15_000, 'the opener to run');
      expect(opener.recorded()).toContain('PATH=');
      expect(leaked(opener.recorded()!)).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    }
  });

  it('letagents-desktop open run from a shell that holds a team URL: the opener gets no LETAGENTS_* variable', async () => {
    const serve = await startServe();
    const opener = envRecordingOpener();
    try {
      expect((await runCli(['open', '--data-dir', serve.dataDir], { env: { ...appSettings, PATH: opener.PATH } })).code).toBe(0);
      await waitUntil(() => opener.recorded() !== null, 15_000, 'the opener to run');
      expect(leaked(opener.recorded()!)).toEqual([]);
    } finally {
      await serve.stop();
    }
  });
});

describe('the command that opens a link (no shell, ever)', () => {
  const hostile = [
    'https://example.com/a&calc.exe',
    'https://example.com/?q=1|whoami',
    'https://example.com/^&^|x',
    'https://example.com/%PATH%&%COMSPEC%',
    'https://example.com/"&calc&"',
    "https://example.com/'$(id)'",
    'https://example.com/a b&c',
  ];

  it('on Windows hands the parsed URL to url.dll as one argument, never to cmd', () => {
    for (const url of hostile) {
      const opener = browserCommand(url, 'win32')!;
      expect(opener.command).toBe('rundll32.exe');
      expect(opener.args).toEqual(['url.dll,FileProtocolHandler', new URL(url).href]);
      // Nothing Windows' argument quoting would split or a shell would read as a quote.
      expect(opener.args[1]).not.toMatch(/[\s"]/);
    }
  });

  it('on macOS and Linux runs open / xdg-open with the URL as one argument', () => {
    expect(browserCommand(hostile[0], 'darwin')).toEqual({ command: 'open', args: [hostile[0]] });
    expect(browserCommand(hostile[1], 'linux')).toEqual({ command: 'xdg-open', args: [new URL(hostile[1]).href] });
  });

  it('opens only plain http(s) URLs', () => {
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'calc.exe', '--help', 'ms-settings:', 'https://user:pw@example.com/', 'http://']) {
      expect(browserCommand(bad, 'win32'), bad).toBeNull();
    }
  });
});
