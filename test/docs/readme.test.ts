// The README walks a new user in and sends them to docs/ for the rest: its set-up commands are
// the ones CI runs, it shows the screenshots the e2e run keeps fresh, and every link between the
// README and docs/ leads somewhere real.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { README_SHOTS } from '../e2e/lib/docShots';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const docs = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Markdown links outside code: [text](target), with the target's file and #fragment. */
function links(text: string): { target: string; file: string; fragment?: string }[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => {
      const [file, fragment] = target.split('#');
      return { target, file, fragment };
    });
}

describe('README and docs/', () => {
  it('gives the install and test commands CI runs', () => {
    const setUp = /## Set-up[\s\S]*?```sh\n([\s\S]*?)```/.exec(read('README.md'))?.[1].trim().split('\n');
    const ci = read('.ci/run').trim().split('\n');
    expect(setUp).toEqual(['npm install', 'npm test']);
    // CI runs the README's two commands. (Not `npm ci`: the registry here lacks some of
    // opencode-ai's other-platform binaries, which the lock file then cannot list.)
    expect(ci.slice(-2)).toEqual([`${setUp![0]} --no-audit --no-fund`, setUp![1]]);
  });

  it('stays a walk-in: at most about 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('shows the screenshots a newcomer asked for, each committed with its fingerprint, and no image nobody shows (issue 35)', () => {
    const readme = read('README.md');
    for (const shot of README_SHOTS) {
      expect(readme, `the README does not show docs/images/${shot}.png`).toMatch(new RegExp(`!\\[[^\\]]+\\]\\(docs/images/${shot}\\.png\\)`));
      expect(existsSync(path.join(root, 'docs', 'images', `${shot}.png`)), `docs/images/${shot}.png is not committed`).toBe(true);
      expect(existsSync(path.join(root, 'docs', 'images', `${shot}.aria.yml`)), `docs/images/${shot}.aria.yml is not committed`).toBe(true);
    }
    const shown = ['README.md', ...docs].map(read).join('\n');
    for (const image of readdirSync(path.join(root, 'docs', 'images')).filter((f) => f.endsWith('.png'))) {
      expect(shown, `docs/images/${image} is shown nowhere`).toContain(`images/${image}`);
    }
  });

  it('links every docs/ file from the README, and every link resolves to a file and heading', () => {
    const readmeTargets = links(read('README.md')).map((l) => l.file);
    for (const doc of docs) expect(readmeTargets, `${doc} is not linked from the README`).toContain(doc);
    for (const source of ['README.md', ...docs]) {
      for (const link of links(read(source))) {
        const file = link.file ? path.join(path.dirname(source), link.file) : source;
        expect(existsSync(path.join(root, file)), `${source} links to ${link.target}`).toBe(true);
        if (!link.fragment) continue;
        const headings = [...read(file).matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]));
        expect(headings, `${source} links to ${link.target}`).toContain(link.fragment);
      }
    }
  });

});
