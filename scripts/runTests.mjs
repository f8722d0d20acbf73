// `npm test`: builds the app (renderer + CLI) the integration and end-to-end tests
// spawn, then runs vitest. On Linux it
// starts a private D-Bus session with an unlocked gnome-keyring so keychain tests use a
// real Secret Service. Every process of the run carries a marker, and whatever the tests left
// running is ended after vitest (leftovers.mjs). Ends with the plain "N passed, N failed" line CI reads.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endProcessesOfRun, RUN_MARKER } from './leftovers.mjs';

const args = process.argv.slice(2);
for (const step of [['node_modules/electron-vite/bin/electron-vite.js', 'build'], ['scripts/buildCli.mjs']]) {
  const build = spawnSync(process.execPath, step, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) {
    console.log('0 passed, 1 failed');
    process.exit(build.status ?? 1);
  }
}

const vitest = ['node_modules/vitest/vitest.mjs', 'run', ...args];
const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const canKeyring = process.platform === 'linux' && onPath('dbus-run-session') && onPath('gnome-keyring-daemon');
const xdg = mkdtempSync(join(tmpdir(), 'letagents-test-xdg-'));
const runId = randomUUID();
const runEnv = { ...process.env, [RUN_MARKER]: runId };
let result;
if (canKeyring && !process.env.LETAGENTS_TEST_NO_KEYRING) {
  const quoted = [process.execPath, ...vitest].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const inner = `echo -n test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && LETAGENTS_TEST_KEYRING=1 exec ${quoted}`;
  result = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], {
    stdio: 'inherit',
    env: { ...runEnv, XDG_DATA_HOME: xdg, XDG_RUNTIME_DIR: xdg },
  });
} else {
  result = spawnSync(process.execPath, vitest, { stdio: 'inherit', env: runEnv });
}
// A file that failed or timed out may have skipped its cleanup: nothing it started outlives the run.
const left = await endProcessesOfRun(runId);
if (left.length > 0) console.error(`Ended ${left.length} process(es) the tests left running:\n${left.map((p) => `  ${p.pid} ${p.args.slice(0, 200)}`).join('\n')}`);
rmSync(xdg, { recursive: true, force: true });

const report = 'test-results/vitest.json';
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  // A file that fails to load has no failed test of its own: count it as one failure.
  const brokenFiles = r.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed'),
  ).length;
  const failed = r.numFailedTests + brokenFiles;
  console.log(`${r.numPassedTests} passed, ${failed} failed`);
} else {
  console.log('0 passed, 1 failed');
}
process.exit(result.status ?? 1);
