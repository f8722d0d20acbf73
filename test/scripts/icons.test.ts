import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support';

const build = join(repoRoot, 'build');
const out = mkdtempSync(join(tmpdir(), 'la-icons-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Width, height and the alpha of the centre pixel of an 8-bit RGBA PNG without filters. */
function readPng(bytes: Buffer) {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  expect(bytes.toString('ascii', 12, 16)).toBe('IHDR');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const chunks: Buffer[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('ascii', at + 4, at + 8) === 'IDAT') chunks.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(chunks));
  const centre = Math.floor(height / 2) * (width * 4 + 1) + 1 + Math.floor(width / 2) * 4;
  return { width, height, centreAlpha: rows[centre + 3] };
}

describe('the icons in build/', () => {
  it('are what build/generateIcons.mjs draws (regenerating changes nothing)', () => {
    const result = spawnSync(process.execPath, [join(build, 'generateIcons.mjs'), '--out', out], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    for (const name of ['icon.png', 'icon.icns', 'icon.ico', ...readdirSync(join(build, 'icons')).map((n) => join('icons', n))]) {
      expect(readFileSync(join(out, name)).equals(readFileSync(join(build, name))), name).toBe(true);
    }
    // The phone page's Add to Home Screen icons (issue 37), kept with the renderer's public files.
    const phoneIcons = join(repoRoot, 'src', 'renderer', 'public', 'icons');
    expect(readdirSync(phoneIcons).sort()).toEqual(['apple-touch-icon.png', 'icon-192.png', 'icon-512.png', 'maskable-512.png']);
    for (const name of readdirSync(phoneIcons)) expect(readFileSync(join(out, 'phone-icons', name)).equals(readFileSync(join(phoneIcons, name))), name).toBe(true);
  }, 60_000);

  it('include a 1024 px PNG for Linux and the macOS icon', () => {
    expect(readPng(readFileSync(join(build, 'icon.png')))).toEqual({ width: 1024, height: 1024, centreAlpha: 255 });
    const icns = readFileSync(join(build, 'icon.icns'));
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types: string[] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) types.push(icns.toString('ascii', at, at + 4));
    expect(types).toEqual(['ic07', 'ic08', 'ic09', 'ic10']);
  });

  it('include a Windows icon with a 256 px image, as NSIS requires', () => {
    const ico = readFileSync(join(build, 'icon.ico'));
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes = Array.from({ length: count }, (_, i) => ico[6 + 16 * i] || 256);
    expect(sizes).toEqual([16, 32, 48, 256]);
    const last = 6 + 16 * (count - 1);
    const png = ico.subarray(ico.readUInt32LE(last + 12), ico.readUInt32LE(last + 12) + ico.readUInt32LE(last + 8));
    expect(readPng(png)).toMatchObject({ width: 256, height: 256 });
  });

  it('include tray icons: a template pair for macOS, a colour one elsewhere', () => {
    expect(readPng(readFileSync(join(build, 'icons', 'trayTemplate.png')))).toMatchObject({ width: 16, height: 16 });
    expect(readPng(readFileSync(join(build, 'icons', 'trayTemplate@2x.png')))).toMatchObject({ width: 32, height: 32 });
    expect(readPng(readFileSync(join(build, 'icons', 'tray.png')))).toMatchObject({ width: 32, height: 32 });
  });
});
