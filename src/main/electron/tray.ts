// The tray presence: how many agents are online, how many things need the person, and
// Open / Quit. It outlives the window, so the app keeps serving agents with no window.
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import type { ShellStatusSnapshot } from './shellStatus';

export interface TrayActions {
  openWindow(): void;
  openNeedsYou(): void;
  quit(): void;
}

export const agentsOnlineLabel = (count: number) =>
  count === 0 ? 'No agents online' : count === 1 ? '1 agent online' : `${count} agents online`;

export const needsYouLabel = (count: number) => (count === 0 ? 'Nothing needs you' : `Needs you: ${count}`);

export function trayMenuTemplate(status: ShellStatusSnapshot, actions: TrayActions): MenuItemConstructorOptions[] {
  const waiting = status.needsYou.length;
  return [
    { id: 'agents', label: agentsOnlineLabel(status.agentsOnline), enabled: false },
    { id: 'needsYou', label: needsYouLabel(waiting), enabled: waiting > 0, click: () => actions.openNeedsYou() },
    { type: 'separator' },
    { id: 'open', label: 'Open LetAgents', click: () => actions.openWindow() },
    { id: 'quit', label: 'Quit LetAgents', click: () => actions.quit() },
  ];
}

export class TrayPresence {
  private readonly tray: Tray;

  constructor(
    iconPath: string,
    private readonly actions: TrayActions,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {
    const icon = nativeImage.createFromPath(iconPath);
    // macOS tints a template image for light and dark menu bars.
    if (platform === 'darwin') icon.setTemplateImage(true);
    this.tray = new Tray(icon);
    // Windows and Linux: a click on the icon opens the window; the menu is on right-click.
    this.tray.on('click', () => actions.openWindow());
    this.update({ agentsOnline: 0, needsYou: [] });
  }

  update(status: ShellStatusSnapshot): void {
    const waiting = status.needsYou.length;
    this.tray.setToolTip(`LetAgents: ${agentsOnlineLabel(status.agentsOnline).toLowerCase()}, ${waiting} need${waiting === 1 ? 's' : ''} you`);
    if (this.platform === 'darwin') this.tray.setTitle(waiting > 0 ? String(waiting) : '');
    this.tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(status, this.actions)));
  }

  destroy(): void {
    this.tray.destroy();
  }
}
