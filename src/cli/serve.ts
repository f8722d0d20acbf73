// `letagents-desktop serve`: the app core headless, with the agent socket, /mcp and the
// browser UI on 127.0.0.1. Prints where they are (one JSON line with --json; the UI link
// carries a one-time code, never the agent token) and shuts down cleanly on SIGINT/SIGTERM.
// With --open, an app already running for the folder is opened instead of a second one.
// Without --port it takes the port it had last time for the folder when that one is free.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppAlreadyRunningError } from '../main/gateway';
import { readLastPort, rememberPort } from '../main/gateway/lastPort';
import { startAppHost, type AppHost } from '../main/host';
import { resolveDataDir } from '../main/paths';
import { logUnhandledRejections } from '../main/unhandledRejections';
import { openByHand, openInBrowser } from './browserOpener';
import { openRunningApp } from './open';
import { remoteHowTo, sshTunnelCommand } from './remoteAccess';
import { parseCommandArgs } from './usage';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost']);

export async function runServe(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    'data-dir': { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string' },
    json: { type: 'boolean', default: false },
    open: { type: 'boolean', default: false },
    'idle-exit': { type: 'string' },
  });
  // Without --port: the port of last time when it is free, so an open tab finds the app again.
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`letagents-desktop serve: --port must be a number from 0 to 65535 (0 picks a free port), not "${values.port}".\n`);
    return 2;
  }
  if (!LOOPBACK_NAMES.has(values.host)) {
    process.stderr.write(
      `letagents-desktop serve: refusing --host ${values.host}: the app listens on 127.0.0.1 only, ` +
        'so nothing outside this machine can reach your agents or the UI.\n' +
        remoteHowTo(port > 0 ? port : null, process.env),
    );
    return 2;
  }
  const idleExit = values['idle-exit'] === undefined ? null : Number(values['idle-exit']);
  if (idleExit !== null && !(Number.isFinite(idleExit) && idleExit > 0)) {
    process.stderr.write(`letagents-desktop serve: --idle-exit takes seconds (a number above 0), not "${values['idle-exit']}".\n`);
    return 2;
  }
  const dataDir = resolveDataDir(values['data-dir']);
  logUnhandledRejections();
  let stopRequested!: (reason: string) => void;
  const stopReason = new Promise<string>((resolve) => (stopRequested = resolve));
  let host: AppHost;
  try {
    // The CLI bundle lives in out/cli; the built renderer beside it in out/renderer.
    const rendererDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');
    const preferredPort = values.port === undefined ? readLastPort(dataDir) : null;
    host = await startAppHost({
      dataDir,
      port,
      preferredPort,
      rendererDir,
      apiHost: { kind: 'browser', env: process.env, openExternal: async (url) => (await openInBrowser(url)).opened },
      run: { kind: 'serve', startedBy: process.env.LETAGENTS_STARTED_BY_HELPER === '1' ? 'agent' : 'person' },
      idleExitMs: idleExit === null ? null : idleExit * 1000,
      onStop: stopRequested,
    });
  } catch (error) {
    if (!(error instanceof AppAlreadyRunningError)) throw error;
    if (values.open) {
      process.stdout.write(`LetAgents is already running for ${dataDir}; opening it.\n`);
      return openRunningApp(dataDir);
    }
    process.stderr.write(`letagents-desktop serve: ${error.message} (\`letagents-desktop open\` opens its UI.)\n`);
    return 3;
  }
  // Listen for signals before announcing ourselves: whoever reads the line may stop us at once.
  process.once('SIGINT', () => stopRequested('stopped with Ctrl-C'));
  process.once('SIGTERM', () => stopRequested('stopped by SIGTERM'));
  const gateway = host.gateway;
  const http = gateway.http!;
  rememberPort(dataDir, http.port);
  const uiUrl = gateway.newUiUrl();
  // With --open, a person sees one link: the browser gets it, and the terminal shows it only
  // when no browser took it (issue 35: two different one-time links, one already spent). The
  // --json line keeps its own link for the program that reads it.
  const openUrl = values.open ? (values.json ? gateway.newUiUrl() : uiUrl) : null;
  const uiLine = !uiUrl
    ? 'none (the renderer is not built: npm run build)'
    : openUrl && !values.json
      ? 'opening it in your browser (`letagents-desktop open` opens it again)'
      : `${uiUrl}  (a one-time link for one minute; \`letagents-desktop open\` opens a new one)`;
  if (values.json) {
    const line = { ui_url: uiUrl, mcp_url: http.mcpUrl, socket: gateway.socketPath, data_dir: dataDir };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } else {
    process.stdout.write(
      `LetAgents is running for ${dataDir}\n` +
        `  UI:           ${uiLine}\n` +
        `  MCP (HTTP):   ${http.mcpUrl}  (send "Authorization: Bearer <agent-token>")\n` +
        `  Agent socket: ${gateway.socketPath}  (agents use \`letagents-desktop mcp\`)\n` +
        // Logged in over SSH, the browser is on another computer: the way there.
        (process.env.SSH_CONNECTION && uiUrl
          ? `Over SSH? On your computer run \`${sshTunnelCommand(http.port, process.env)}\`, then open the UI link there.\n`
          : '') +
        'Press Ctrl-C to stop.\n',
    );
  }
  if (openUrl) {
    // The --json line stays the only line on stdout.
    void openInBrowser(openUrl).then((result) => {
      if (!result.opened) (values.json ? process.stderr : process.stdout).write(openByHand(openUrl, result.reason));
    });
  }

  const reason = await stopReason;
  // A second signal while shutting down means "now".
  const force = () => process.exit(1);
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  if (!values.json) process.stdout.write(`Stopping (${reason})…\n`);
  await host.close(reason);
  return 0;
}
