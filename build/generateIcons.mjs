// Draws the app and tray icons (placeholders until a designer's artwork exists) and writes
// them as PNG, ICO and ICNS with no image library: `node build/generateIcons.mjs [--out DIR]`.
// The artwork: a rounded indigo square with a white speech bubble holding three dots.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';

const INDIGO = [79, 70, 229];
const VIOLET = [124, 58, 237];
const WHITE = [255, 255, 255];
const BLACK = [0, 0, 0];

// Shapes in a unit square (0..1); each returns a signed distance (negative inside).
const roundedBox = (x, y, cx, cy, hw, hh, r) => {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
};
const circle = (x, y, cx, cy, r) => Math.hypot(x - cx, y - cy) - r;
// The bubble's tail: a triangle below the bubble's left half.
const tail = (x, y) => {
  const edges = [
    [0.3, 0.62, 0.46, 0.62],
    [0.46, 0.62, 0.28, 0.8],
    [0.28, 0.8, 0.3, 0.62],
  ];
  let inside = true;
  for (const [x1, y1, x2, y2] of edges) if ((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) < 0) inside = false;
  return inside ? -1 : 1;
};
const bubble = (x, y) => Math.min(roundedBox(x, y, 0.5, 0.45, 0.3, 0.2, 0.12), tail(x, y));
const dots = (x, y) => Math.min(circle(x, y, 0.37, 0.45, 0.05), circle(x, y, 0.5, 0.45, 0.05), circle(x, y, 0.63, 0.45, 0.05));

/** The colour (or null for transparent) of one point of the artwork. */
function paint(variant, x, y) {
  if (variant === 'template') {
    // Tray template (macOS tints it): the bubble alone, dots cut out, black on transparent.
    const sx = (x - 0.5) * 0.8 + 0.5;
    const sy = (y - 0.5) * 0.8 + 0.47;
    return bubble(sx, sy) < 0 && dots(sx, sy) > 0 ? BLACK : null;
  }
  if (variant === 'maskable') {
    // Add to Home Screen (issue 37): the launcher crops to its own shape, so the whole square is
    // painted and the bubble stays inside the central 80% it never crops.
    const sx = (x - 0.5) / 0.8 + 0.5;
    const sy = (y - 0.5) / 0.8 + 0.5;
    if (bubble(sx, sy) < 0 && dots(sx, sy) > 0) return WHITE;
    const t = (x + y) / 2;
    return INDIGO.map((c, i) => Math.round(c + (VIOLET[i] - c) * t));
  }
  const margin = variant === 'tray' ? 0 : 0.06;
  if (roundedBox(x, y, 0.5, 0.5, 0.5 - margin, 0.5 - margin, 0.22 * (1 - 2 * margin)) > 0) return null;
  if (bubble(x, y) < 0 && dots(x, y) > 0) return WHITE;
  const t = (x + y) / 2;
  return INDIGO.map((c, i) => Math.round(c + (VIOLET[i] - c) * t));
}

/** RGBA pixels of a size×size icon, antialiased by supersampling. */
export function renderIcon(size, variant = 'app') {
  const n = size >= 512 ? 3 : 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const colour = paint(variant, (px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size);
          if (!colour) continue;
          r += colour[0]; g += colour[1]; b += colour[2]; a++;
        }
      }
      const o = (py * size + px) * 4;
      if (a > 0) {
        pixels[o] = Math.round(r / a);
        pixels[o + 1] = Math.round(g / a);
        pixels[o + 2] = Math.round(b / a);
      }
      pixels[o + 3] = Math.round((255 * a) / (n * n));
    }
  }
  return pixels;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG (8-bit RGBA, no filtering) of square RGBA pixels. */
export function encodePng(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A Windows .ico holding PNG images (Windows Vista and later read those). */
export function encodeIco(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

/** A macOS .icns holding PNG images under their type codes (ic07 128 … ic10 1024). */
export function encodeIcns(entries) {
  const parts = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((sum, p) => sum + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

/** Writes every icon electron-builder and the shell use into `outDir`. */
export function writeIcons(outDir) {
  const png = (size, variant = 'app') => encodePng(size, renderIcon(size, variant));
  const big = { 1024: png(1024), 512: png(512), 256: png(256), 128: png(128) };
  mkdirSync(path.join(outDir, 'icons'), { recursive: true });
  writeFileSync(path.join(outDir, 'icon.png'), big[1024]);
  writeFileSync(path.join(outDir, 'icon.icns'), encodeIcns([
    { type: 'ic07', png: big[128] },
    { type: 'ic08', png: big[256] },
    { type: 'ic09', png: big[512] },
    { type: 'ic10', png: big[1024] },
  ]));
  writeFileSync(path.join(outDir, 'icon.ico'), encodeIco([16, 32, 48, 256].map((size) => ({ size, png: size === 256 ? big[256] : png(size) }))));
  // The shell's own: window icon (Linux), tray icons (template pair for macOS).
  writeFileSync(path.join(outDir, 'icons', 'icon.png'), big[256]);
  writeFileSync(path.join(outDir, 'icons', 'tray.png'), png(32, 'tray'));
  writeFileSync(path.join(outDir, 'icons', 'trayTemplate.png'), png(16, 'template'));
  writeFileSync(path.join(outDir, 'icons', 'trayTemplate@2x.png'), png(32, 'template'));
}

/** The phone page's icons for Add to Home Screen (the web manifest and iOS's apple-touch-icon). */
export function writePhoneIcons(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'icon-192.png'), encodePng(192, renderIcon(192)));
  writeFileSync(path.join(dir, 'icon-512.png'), encodePng(512, renderIcon(512)));
  writeFileSync(path.join(dir, 'maskable-512.png'), encodePng(512, renderIcon(512, 'maskable')));
  writeFileSync(path.join(dir, 'apple-touch-icon.png'), encodePng(180, renderIcon(180, 'maskable')));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const outDir = at > 0 ? path.resolve(process.argv[at + 1]) : here;
  writeIcons(outDir);
  // The phone page's icons live with the renderer's public files (copied into the build as they are).
  writePhoneIcons(at > 0 ? path.join(outDir, 'phone-icons') : path.join(here, '..', 'src', 'renderer', 'public', 'icons'));
  console.log(`icons written to ${outDir}`);
}
