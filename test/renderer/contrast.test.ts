// The design tokens keep WCAG 2.1 AA contrast in light and dark (issue 17): every text colour
// at least 4.5:1 on each background it is drawn on, including hover and selected states that
// an axe run of a still page never sees; the focus ring and field borders at least 3:1.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const TOKENS = readFileSync(path.resolve(__dirname, '../../src/renderer/src/styles/tokens.css'), 'utf8');

/** Each colour token's value per scheme, from `--name: light-dark(#light, #dark)` or `--name: #both`. */
function readTokens(): Record<'light' | 'dark', Record<string, string>> {
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  for (const [, name, a, b] of TOKENS.matchAll(/--([\w-]+):\s*light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)/gi)) [light[name], dark[name]] = [a, b];
  for (const [, name, both] of TOKENS.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)) light[name] = dark[name] = both;
  for (const [, name, ref] of TOKENS.matchAll(/--([\w-]+):\s*var\(--([\w-]+)\)\s*;/g)) [light[name], dark[name]] = [light[ref], dark[ref]];
  return { light, dark };
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const PAGE = ['bg', 'bg-subtle', 'bg-sunken', 'bg-hover', 'sidebar', 'mention'];
/** Foreground token, the backgrounds it is drawn on, and the ratio it needs there. */
const PAIRS: ReadonlyArray<readonly [string, readonly string[], number]> = [
  ['text', [...PAGE, 'bg-active', 'highlight', 'accent-soft'], 4.5],
  ['text-muted', [...PAGE, 'bg-active'], 4.5],
  ['text-faint', PAGE, 4.5],
  ['accent', ['bg', 'bg-subtle', 'bg-sunken', 'sidebar'], 4.5], // links, reply counts, task refs
  ['accent-text', ['accent', 'accent-hover'], 4.5], // primary buttons, counts, the new-messages pill
  ['accent-soft-text', ['accent-soft'], 4.5], // IDE badges, mentions, step numbers
  ['ok', ['ok-soft', 'bg'], 4.5], // the "Installed" pill, the person badge, passing checks
  ['warn', ['warn-soft', 'bg'], 4.5],
  ['danger', ['danger-soft', 'bg'], 4.5],
  ['on-danger', ['danger'], 4.5], // destructive buttons, error toasts
  ['purple', ['purple-soft', 'bg'], 4.5], // in review, merged
  ['focus-ring', ['bg', 'bg-subtle', 'bg-sunken', 'sidebar', 'accent-soft'], 3],
  ['border-field', ['bg', 'bg-subtle'], 3], // text fields, the composer, switches
];

describe('design token contrast', () => {
  const tokens = readTokens();
  for (const scheme of ['light', 'dark'] as const) {
    it(`every pair meets WCAG 2.1 AA in ${scheme}`, () => {
      const failures: string[] = [];
      for (const [fg, backgrounds, needed] of PAIRS) {
        for (const bg of backgrounds) {
          const [a, b] = [tokens[scheme][fg], tokens[scheme][bg]];
          if (!a || !b) failures.push(`--${fg} or --${bg} is not a plain colour token`);
          else if (contrast(a, b) < needed) failures.push(`--${fg} ${a} on --${bg} ${b}: ${contrast(a, b).toFixed(2)} < ${needed}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('white initials stay readable on every avatar colour', () => {
    const hues = Object.entries(readTokens().light).filter(([name]) => name.startsWith('hue-'));
    expect(hues).toHaveLength(8);
    expect(hues.filter(([, hex]) => contrast('#ffffff', hex) < 4.5)).toEqual([]);
  });
});
