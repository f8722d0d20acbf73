// Electron entry: builds the core and hosts the agent gateway, then the shell around them
// (src/main/electron/desktop.ts); this file only says where the built app lives.
import { app } from 'electron';
import { startDesktop } from './electron/desktop';
import { logUnhandledRejections } from './unhandledRejections';

logUnhandledRejections();
startDesktop({ argv: process.argv, mainDir: import.meta.dirname });

// Ctrl-C in the terminal of `npm start` quits like the menu's Quit: the core closes cleanly.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
