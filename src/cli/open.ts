// `letagents-desktop open [--data-dir D] [--print]`: opens the running app's browser UI. It
// asks the app over the agent socket (the handshake proves both sides know the agent token)
// for a fresh one-time link, so no lasting secret is ever on a command line or in a URL. With
// --print, or when no browser could be opened, it prints the link instead.
import { requestUiLink } from '../shared-node/appLink';
import { helperDataDir } from '../shared-node/dataPaths';
import { openByHand, openInBrowser } from './browserOpener';
import { parseCommandArgs } from './usage';

export async function runOpen(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { 'data-dir': { type: 'string' }, print: { type: 'boolean', default: false } });
  return openRunningApp(helperDataDir(values['data-dir']), { print: values.print });
}

/** Opens the UI of the app running for `dataDir`; the exit code (1 when there is none to open). */
export async function openRunningApp(dataDir: string, options: { print?: boolean } = {}): Promise<number> {
  const link = await requestUiLink(dataDir);
  if ('error' in link) {
    process.stderr.write(`letagents-desktop open: ${link.error}\n`);
    return 1;
  }
  if (options.print) {
    process.stdout.write(`${link.url}\n`);
    return 0;
  }
  const result = await openInBrowser(link.url);
  if (!result.opened) {
    process.stdout.write(openByHand(link.url, result.reason));
    return 1;
  }
  process.stdout.write(`Opened LetAgents (${dataDir}) in your browser.\n`);
  return 0;
}
