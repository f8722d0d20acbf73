// `letagents-desktop open [--data-dir D]`: opens the running app's browser UI. It asks the
// app over the agent socket (the handshake proves both sides know the agent token) for a
// fresh one-time link, so no lasting secret is ever on a command line or in a URL.
import { parseArgs } from 'node:util';
import { requestUiLink } from '../shared-node/appLink';
import { helperDataDir } from '../shared-node/dataPaths';
import { openInBrowser } from './browserOpener';

export async function runOpen(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' } }, strict: true });
  return openRunningApp(helperDataDir(values['data-dir']));
}

/** Opens the UI of the app running for `dataDir`; the exit code (1 when there is none to open). */
export async function openRunningApp(dataDir: string): Promise<number> {
  const link = await requestUiLink(dataDir);
  if ('error' in link) {
    process.stderr.write(`letagents-desktop open: ${link.error}\n`);
    return 1;
  }
  if (!openInBrowser(link.url)) return 1;
  process.stdout.write(`Opened LetAgents (${dataDir}) in your browser.\n`);
  return 0;
}
