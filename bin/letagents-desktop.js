#!/usr/bin/env node
// Entry of the `letagents-desktop` command; the bundled CLI lives in out/cli.
// The CLI's native modules (better-sqlite3) need Node ≥ 22.12: on an older Node they crash the
// process (exit 139) without a word. So the version is checked here, before anything native
// loads: on an older Node the checkout's own Node 22 (the `node` dev dependency) runs the
// command instead, and where there is none one line says what to do. Plain ES2018, no
// dependencies: this file must run on any Node.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NEEDED = [22, 12];
const REEXEC_MARK = 'LETAGENTS_DESKTOP_REEXEC';

function oldNode() {
  // Inside Electron (ELECTRON_RUN_AS_NODE) the native modules are built for its own Node.
  if (process.versions.electron) return false;
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1]);
}

/** The checkout's own Node 22, installed by npm as a dev dependency, if there is one. */
function checkoutNode() {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const bin = path.join(root, 'node_modules', 'node', 'bin');
  return [path.join(bin, 'node'), path.join(bin, 'node.exe')].find((file) => existsSync(file));
}

/** Runs this command again on `node`; its exit (code or signal) becomes ours. */
function runOn(node) {
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, [REEXEC_MARK]: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (error) => {
    console.error(`letagents-desktop: could not start ${node}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code === null ? 1 : code);
  });
}

function start() {
  import('../out/cli/cli.mjs').catch((error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('out/cli')) {
      console.error('letagents-desktop: not built yet. Run `npm run build:cli` first.');
    } else {
      console.error(error);
    }
    process.exit(1);
  });
}

if (!oldNode()) {
  start();
} else {
  const node = process.env[REEXEC_MARK] ? undefined : checkoutNode();
  if (node) {
    runOn(node);
  } else {
    console.error(
      `letagents-desktop needs Node ≥ ${NEEDED.join('.')}; you have ${process.versions.node} (${process.execPath}).\n` +
        'Run it inside the checkout as `npx letagents-desktop …` (npm installs Node 22 there), or install Node 22.12 or newer.',
    );
    process.exit(1);
  }
}
