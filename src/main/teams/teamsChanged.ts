// How `letagents-desktop team …` tells a running app that the teams changed: it rewrites
// `teams-changed` in the data folder (a time stamp, no secret) and the app watches that
// file (inotify, FSEvents or ReadDirectoryChanges: no polling). The app sees a committed
// settings change on its next registry read anyway (teamSettings.ts); the watch only makes the change
// show at once (open windows, connections of a removed team closed).
import { watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export const teamsChangedPath = (dataDir: string) => join(dataDir, 'teams-changed');

/** Tells an app running on `dataDir` (if any) to re-read its teams. */
export function announceTeamsChanged(dataDir: string): void {
  writeFileSync(teamsChangedPath(dataDir), `${new Date().toISOString()}\n`, { mode: 0o600 });
}

/** Calls `onChange` when another process announces a change; returns the function that stops watching. */
export function watchTeamsChanged(dataDir: string, onChange: () => void): () => void {
  const path = teamsChangedPath(dataDir);
  let watcher: FSWatcher | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const fire = () => {
    if (timer) clearTimeout(timer);
    // One rewrite can raise several events: report once.
    timer = setTimeout(() => {
      timer = null;
      if (!stopped) onChange();
    }, 30);
  };
  const start = () => {
    try {
      // Created if missing, never truncated: the watch needs the file to exist.
      writeFileSync(path, '', { flag: 'a', mode: 0o600 });
      watcher = watch(path, { persistent: false }, (event) => {
        fire();
        // Replaced or deleted: watch the new file.
        if (event === 'rename' && !stopped) {
          watcher?.close();
          start();
        }
      });
      watcher.on('error', () => undefined);
    } catch (error) {
      console.warn(`teams: cannot watch ${path} (${(error as Error).message}); changes made by \`letagents-desktop team\` show on the next look instead.`);
    }
  };
  start();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    watcher?.close();
  };
}
