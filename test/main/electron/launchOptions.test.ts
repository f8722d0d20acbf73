import { describe, expect, it } from 'vitest';
import { parseLaunchOptions } from '../../../src/main/electron/launchOptions';

describe('the desktop app’s command line', () => {
  it('starts with the window unless --background is given', () => {
    expect(parseLaunchOptions(['/opt/LetAgents/letagents'])).toEqual({ background: false });
    expect(parseLaunchOptions(['/opt/LetAgents/letagents', '--background'])).toEqual({ background: true });
  });

  it('takes --data-dir in both spellings, among Electron’s own switches and a dev app path', () => {
    expect(parseLaunchOptions(['electron', '.', '--no-sandbox', '--background', '--data-dir', '/tmp/d'])).toEqual({ background: true, dataDir: '/tmp/d' });
    expect(parseLaunchOptions(['app', '--data-dir=/tmp/e', '--inspect=0'])).toEqual({ background: false, dataDir: '/tmp/e' });
  });

  it('ignores a --data-dir with no value', () => {
    expect(parseLaunchOptions(['app', '--data-dir'])).toEqual({ background: false });
  });
});
