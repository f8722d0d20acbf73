// The Electron app's own command line: `--background` (start hidden in the tray; the stdio
// helper uses it) and `--data-dir D`. Electron and Chromium add switches of their own, so
// unknown arguments are skipped rather than refused.

export interface LaunchOptions {
  readonly background: boolean;
  /** As given; resolved against LETAGENTS_DESKTOP_DATA_DIR and the default by resolveDataDir. */
  readonly dataDir?: string;
}

export function parseLaunchOptions(argv: readonly string[]): LaunchOptions {
  let background = false;
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--background') background = true;
    else if (arg === '--data-dir' && i + 1 < argv.length) dataDir = argv[++i];
    else if (arg.startsWith('--data-dir=')) dataDir = arg.slice('--data-dir='.length);
  }
  return dataDir ? { background, dataDir } : { background };
}
