import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TrayPresence } from '../../../src/main/electron/tray';
import { findMenuItem, resetElectronMock, Tray } from './electronMock';
import { requestItem } from './fakeApi';

vi.mock('electron', () => import('./electronMock'));

beforeEach(resetElectronMock);

function tray(platform: NodeJS.Platform = 'linux') {
  const actions = { openWindow: vi.fn(), openNeedsYou: vi.fn(), quit: vi.fn() };
  const presence = new TrayPresence('/icons/tray.png', actions, platform);
  return { presence, actions, tray: Tray.instances[0] };
}

describe('the tray', () => {
  it('starts with no agents online and nothing waiting', () => {
    const { tray: icon } = tray();
    expect(icon.image.path).toBe('/icons/tray.png');
    expect(findMenuItem(icon.menu!.template, 'agents')).toMatchObject({ label: 'No agents online', enabled: false });
    expect(findMenuItem(icon.menu!.template, 'needsYou')).toMatchObject({ label: 'Nothing needs you', enabled: false });
    expect(icon.toolTip).toBe('LetAgents: no agents online, 0 need you');
  });

  it('shows how many agents are online and how many things need the person', () => {
    const { presence, tray: icon } = tray();
    presence.update({ agentsOnline: 1, needsYou: [requestItem(1, 'Juniper', 'Q')] });
    expect(findMenuItem(icon.menu!.template, 'agents')!.label).toBe('1 agent online');
    expect(findMenuItem(icon.menu!.template, 'needsYou')).toMatchObject({ label: 'Needs you: 1', enabled: true });
    expect(icon.toolTip).toBe('LetAgents: 1 agent online, 1 needs you');
    presence.update({ agentsOnline: 3, needsYou: [requestItem(1, 'J', 'Q'), requestItem(2, 'J', 'R')] });
    expect(findMenuItem(icon.menu!.template, 'agents')!.label).toBe('3 agents online');
    expect(findMenuItem(icon.menu!.template, 'needsYou')!.label).toBe('Needs you: 2');
  });

  it('opens the window, opens "Needs you" and quits from its menu; a click opens the window', () => {
    const { presence, actions, tray: icon } = tray();
    presence.update({ agentsOnline: 0, needsYou: [requestItem(1, 'J', 'Q')] });
    findMenuItem(icon.menu!.template, 'open')!.click!();
    expect(actions.openWindow).toHaveBeenCalledTimes(1);
    findMenuItem(icon.menu!.template, 'needsYou')!.click!();
    expect(actions.openNeedsYou).toHaveBeenCalledTimes(1);
    findMenuItem(icon.menu!.template, 'quit')!.click!();
    expect(actions.quit).toHaveBeenCalledTimes(1);
    icon.emit('click');
    expect(actions.openWindow).toHaveBeenCalledTimes(2);
    expect(findMenuItem(icon.menu!.template, 'open')!.label).toBe('Open LetAgents');
    expect(findMenuItem(icon.menu!.template, 'quit')!.label).toBe('Quit LetAgents');
  });

  it('uses a template image and shows the count next to it on macOS', () => {
    const { presence, tray: icon } = tray('darwin');
    expect(icon.image.template).toBe(true);
    presence.update({ agentsOnline: 0, needsYou: [requestItem(1, 'J', 'Q')] });
    expect(icon.title).toBe('1');
    presence.update({ agentsOnline: 0, needsYou: [] });
    expect(icon.title).toBe('');
  });

  it('goes away when destroyed', () => {
    const { presence, tray: icon } = tray();
    presence.destroy();
    expect(icon.destroyed).toBe(true);
  });
});
