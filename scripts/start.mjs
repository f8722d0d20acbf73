// `npm start`: the Electron app through electron-vite (dev server, reloads) where the Electron
// binary is installed. Where it is missing (it cannot be downloaded everywhere), one line says
// so and the same app runs headless with its UI in the browser: `letagents-desktop serve --open`.
// Extra arguments go to the app: `npm start -- --data-dir /tmp/la`.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);

/** The Electron binary the `electron` package would run, or why there is none. */
function findElectron() {
  const packageDir = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(packageDir, 'path.txt');
  // Checked here, not by require('electron'): that would try to download the binary.
  if (!existsSync(pathFile)) return { missing: 'node_modules/electron/path.txt is absent' };
  const relative = readFileSync(pathFile, 'utf8').trim();
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? path.join(override, relative || 'electron') : path.join(packageDir, 'dist', relative);
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    return { missing: `${path.relative(root, binary) || binary} is not an executable` };
  }
  return { binary };
}

/** The newest modification time of any file under `dir` (0 when there is none). */
function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const modified = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

/** Runs a build step quietly; its output is shown only when it fails. */
function build(label, command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return;
  process.stderr.write(`npm start: ${label} failed:\n${result.stdout ?? ''}${result.stderr ?? ''}`);
  process.exit(result.status ?? 1);
}

/**
 * Runs the app in the foreground; its exit code is ours. A stop signal reaches it exactly
 * once: Ctrl-C signals the terminal's whole process group and npm passes the signal on
 * again, and to the app a second signal means "stop now, skip the clean shutdown". So the
 * app gets a process group of its own (POSIX) and this script forwards one signal per press.
 */
function run(command, commandArgs) {
  const ownGroup = process.platform !== 'win32';
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', detached: ownGroup });
  let lastForwarded = 0;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (Date.now() - lastForwarded < 1_000) return;
      lastForwarded = Date.now();
      child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const electron = findElectron();
if (electron.binary) {
  const electronVite = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  run(process.execPath, [electronVite, 'dev', ...(args.length > 0 ? ['--', ...args] : [])]);
} else {
  process.stdout.write(
    `Electron is not installed here (${electron.missing}), so LetAgents runs in your browser instead: letagents-desktop serve --open\n`,
  );
  // serve runs the CLI bundle: rebuilt when src/ changed since, so it is this checkout's code
  // (and left alone otherwise: tests may be running it). The page is built when missing;
  // `npm run build` refreshes it.
  if (newestChange(path.join(root, 'src')) > modified(path.join(root, 'out', 'cli', 'cli.mjs'))) {
    build('building the command line', process.execPath, [path.join(root, 'scripts', 'buildCli.mjs')]);
  }
  if (!existsSync(path.join(root, 'out', 'renderer', 'index.html'))) {
    build('building the UI', process.execPath, [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
  }
  run(process.execPath, [path.join(root, 'bin', 'letagents-desktop.js'), 'serve', '--open', ...args]);
}
