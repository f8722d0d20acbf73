// The application menu: the usual roles (with their standard shortcuts) plus Settings and
// "Check diagnostics", which runs the doctor checks.
import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openSettings(): void;
  checkDiagnostics(): void;
  openDataFolder(): void;
}

export function appMenuTemplate(actions: MenuActions, platform: NodeJS.Platform = process.platform, devTools = false): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const settings: MenuItemConstructorOptions = { id: 'settings', label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => actions.openSettings() };
  const diagnostics: MenuItemConstructorOptions = { id: 'diagnostics', label: 'Check diagnostics', click: () => actions.checkDiagnostics() };
  const dataFolder: MenuItemConstructorOptions = { id: 'dataFolder', label: 'Open data folder', click: () => actions.openDataFolder() };
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  return [
    ...(mac
      ? [{
          label: 'LetAgents',
          submenu: [
            { role: 'about' }, separator, settings, separator, { role: 'services' }, separator,
            { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, separator, { role: 'quit' },
          ] satisfies MenuItemConstructorOptions[],
        }]
      : []),
    { label: 'File', submenu: mac ? [{ role: 'close' }] : [settings, separator, { role: 'quit' }] },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(devTools ? [{ role: 'toggleDevTools' } satisfies MenuItemConstructorOptions] : []),
        separator,
        { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, separator, { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [diagnostics, dataFolder] },
  ];
}

export function installAppMenu(actions: MenuActions, platform: NodeJS.Platform = process.platform, devTools = false): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(actions, platform, devTools)));
}
