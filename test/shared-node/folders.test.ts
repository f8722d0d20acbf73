// makeFolders: missing parents made private, an existing folder left alone, and a place
// where folders cannot be made (Node's recursive mkdir spins forever there) refused at once.
import { describe, expect, it } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolders } from '../../src/shared-node/folders';
import { tempDataDir } from '../support';

describe('makeFolders', () => {
  it('makes the folder and its missing parents, private, and accepts one that exists', () => {
    const dir = join(tempDataDir(), 'a', 'b');
    makeFolders(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(() => makeFolders(dir)).not.toThrow();
  });

  it.skipIf(process.platform !== 'linux')('throws the file system\'s error where no folder can be made', () => {
    expect(() => makeFolders('/proc/nope/deeper')).toThrow(/ENOENT/);
    expect(existsSync('/proc/nope')).toBe(false);
  });
});
