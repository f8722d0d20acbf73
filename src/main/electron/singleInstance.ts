// One app per data folder: the single-instance lock is taken on the data folder (Electron
// keys it on userData, which the shell sets to the data folder). A second launch hands its
// command line to the first one and ends.
import type { App } from 'electron';
import { parseLaunchOptions, type LaunchOptions } from './launchOptions';

/**
 * True when this process is the one app for `dataDir`. Otherwise the running app receives
 * `onSecondLaunch` with the second launch's options, and this process should quit.
 */
export function claimSingleInstance(
  app: Pick<App, 'setPath' | 'requestSingleInstanceLock' | 'on'>,
  dataDir: string,
  onSecondLaunch: (options: LaunchOptions) => void,
): boolean {
  app.setPath('userData', dataDir);
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', (_event, argv) => onSecondLaunch(parseLaunchOptions(argv)));
  return true;
}
