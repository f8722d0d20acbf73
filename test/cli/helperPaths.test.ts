import { describe, expect, it } from 'vitest';
import { helperDataDir, helperSocketPath, helperTokenPath } from '../../src/shared-node/dataPaths';
import { agentSocketPath, agentTokenPath, resolveDataDir, defaultDataDir } from '../../src/main/paths';

// The helper may not import the core, so it keeps its own copy of these paths.
describe("the helper's data-folder paths", () => {
  it('match the app for explicit folders, the environment variable and the default', () => {
    expect(helperDataDir('rel/dir')).toBe(resolveDataDir('rel/dir'));
    const env = { LETAGENTS_DESKTOP_DATA_DIR: '/x/y' };
    expect(helperDataDir(undefined, env)).toBe(resolveDataDir(undefined, env));
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const plain = { XDG_CONFIG_HOME: '/cfg', APPDATA: 'C:\\AppData' };
      expect(helperDataDir(undefined, plain, platform)).toBe(defaultDataDir(plain, platform));
    }
  });

  it('agree on the socket (the named pipe is read from the folder, see agentPipe.test.ts) and the token file', () => {
    for (const dir of ['/home/a/.config/LetAgents', '/tmp/x y/data', 'C:\\Users\\A\\AppData\\Roaming\\LetAgents']) {
      for (const platform of ['linux', 'darwin', 'win32'] as const) {
        expect(helperSocketPath(dir, platform)).toBe(agentSocketPath(dir, platform));
      }
      expect(helperSocketPath(dir, 'win32')).toBeNull();
      expect(helperTokenPath(dir)).toBe(agentTokenPath(dir));
    }
  });
});
