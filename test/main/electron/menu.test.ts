import { beforeEach, describe, expect, it, vi } from 'vitest';
import { showDiagnostics, summarizeDiagnostics } from '../../../src/main/electron/diagnostics';
import { appMenuTemplate, installAppMenu } from '../../../src/main/electron/menu';
import { dialog, findMenuItem, Menu, resetElectronMock, type MenuItem } from './electronMock';
import { fakeApi } from './fakeApi';

vi.mock('electron', () => import('./electronMock'));

beforeEach(resetElectronMock);

const actions = () => ({ openSettings: vi.fn(), checkDiagnostics: vi.fn(), openDataFolder: vi.fn() });
const roles = (items: readonly MenuItem[]): string[] => items.flatMap((item) => [...(item.role ? [item.role] : []), ...roles(item.submenu ?? [])]);

describe('the application menu', () => {
  it('has the usual roles, whose shortcuts Electron supplies', () => {
    const template = appMenuTemplate(actions(), 'linux') as MenuItem[];
    expect(roles(template)).toEqual(expect.arrayContaining(['quit', 'editMenu', 'reload', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen', 'windowMenu', 'help']));
    expect(roles(template)).not.toContain('toggleDevTools');
    expect(roles(appMenuTemplate(actions(), 'linux', true) as MenuItem[])).toContain('toggleDevTools');
  });

  it('has the macOS app menu there, with About, Hide and Quit', () => {
    const template = appMenuTemplate(actions(), 'darwin') as MenuItem[];
    expect(template[0].label).toBe('LetAgents');
    expect(roles(template[0].submenu!)).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(roles([template[1]])).toEqual(['close']);
  });

  it('opens Settings with Cmd/Ctrl+, and runs diagnostics from "Check diagnostics"', () => {
    const chosen = actions();
    const template = appMenuTemplate(chosen, 'linux') as MenuItem[];
    const settings = findMenuItem(template, 'settings')!;
    expect(settings).toMatchObject({ label: 'Settings…', accelerator: 'CmdOrCtrl+,' });
    settings.click!();
    expect(chosen.openSettings).toHaveBeenCalled();
    const diagnostics = findMenuItem(template, 'diagnostics')!;
    expect(diagnostics.label).toBe('Check diagnostics');
    diagnostics.click!();
    expect(chosen.checkDiagnostics).toHaveBeenCalled();
    findMenuItem(template, 'dataFolder')!.click!();
    expect(chosen.openDataFolder).toHaveBeenCalled();
  });

  it('is installed as the application menu', () => {
    installAppMenu(actions(), 'win32');
    expect(findMenuItem(Menu.applicationMenu!.template, 'diagnostics')).toBeDefined();
  });
});

describe('"Check diagnostics"', () => {
  const report = {
    checks: [
      { id: 'data-folder', title: 'Data folder', status: 'ok' as const, detail: '/data (mode 0700)' },
      { id: 'database', title: 'Database', status: 'warn' as const, detail: 'No database yet.' },
      { id: 'agent-token', title: 'Agent token', status: 'fail' as const, detail: 'Readable by others. Fix: chmod 600' },
    ],
  };

  it('runs the doctor checks through the app API and shows what they found', async () => {
    const { api } = fakeApi({ doctor: report });
    const summary = await showDiagnostics(null, api, '/data');
    expect(summary).toEqual({
      problems: 1,
      message: '1 problem found.',
      lines: ['[ok] Data folder: /data (mode 0700)', '[--] Database: No database yet.', '[!!] Agent token: Readable by others. Fix: chmod 600'],
    });
    const [options] = dialog.showMessageBox.mock.calls[0] as [{ type: string; title: string; message: string; detail: string }];
    expect(options).toMatchObject({ type: 'warning', title: 'Diagnostics', message: '1 problem found.' });
    expect(options.detail).toBe(['Data folder: /data', ...summary.lines].join('\n'));
  });

  it('says so when nothing is wrong', () => {
    expect(summarizeDiagnostics({ checks: report.checks.slice(0, 2) }).message).toBe('No problems found.');
  });

  it('points to the command line when the checks cannot run', async () => {
    const { api } = fakeApi();
    const summary = await showDiagnostics(null, { ...api, dispatch: async () => ({ ok: false, error: { code: 'internal', message: 'x' } }) }, '/data');
    expect(summary).toEqual({ problems: null, message: 'The diagnostics could not run.', lines: ['Run `letagents-desktop doctor` in a terminal instead.'] });
  });
});
