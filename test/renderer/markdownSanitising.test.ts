// Markdown sanitising, checked in real Chromium (happy-dom's DOM is not complete enough for
// DOMPurify): whatever an agent writes, no script runs and no handler or javascript: link
// survives in the DOM the timeline renders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './support/chromium';

const PAYLOADS = [
  '<script>window.pwned = "script"</script>',
  '<img src=x onerror="window.pwned = \'img\'">',
  '![x](javascript:window.pwned=1)',
  '[click](javascript:window.pwned=1)',
  '<svg><script>window.pwned="svg"</script></svg>',
  '<iframe srcdoc="<script>parent.pwned=1</script>"></iframe>',
  '<a href="javascript:window.pwned=1">x</a>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.pwned=\'mxss\'">',
  '<details open ontoggle="window.pwned=\'toggle\'">',
  '[x](https://ok.example "title\\" onmouseover=\\"window.pwned=1")',
  '`<img src=x onerror=window.pwned=1>`',
  '<form action="javascript:window.pwned=1"><button>go</button></form>',
  '<div style="background:url(javascript:window.pwned=1)">styled</div>',
];

let page: Page;
let close: () => Promise<void>;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [path.resolve(__dirname, '../../src/renderer/src/lib/markdown.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'markdown',
    platform: 'browser',
  });
  const browser = await launchChromium();
  close = browser.close;
  page = await browser.context.newPage();
  await page.setContent('<!doctype html><html><body><div id="host"></div></body></html>');
  await page.addScriptTag({ content: bundle.outputFiles[0].text });
});

afterAll(async () => {
  await close?.();
});

async function renderInPage(text: string) {
  return page.evaluate(async (source) => {
    const host = document.getElementById('host')!;
    host.innerHTML = (window as unknown as { markdown: { renderMarkdown(t: string): string } }).markdown.renderMarkdown(source);
    await new Promise((resolve) => setTimeout(resolve, 50)); // let an image error fire
    const all = [...host.querySelectorAll('*')];
    return {
      pwned: (window as unknown as { pwned?: unknown }).pwned ?? null,
      scripts: host.querySelectorAll('script, iframe, object, embed, svg, math, form, style').length,
      handlers: all.flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name)),
      badLinks: all.map((el) => el.getAttribute('href') ?? el.getAttribute('src') ?? '').filter((v) => /^\s*javascript:/i.test(v)),
      styles: all.filter((el) => el.hasAttribute('style')).length,
      text: host.textContent,
    };
  }, text);
}

describe('message Markdown in Chromium', () => {
  for (const payload of PAYLOADS) {
    it(`renders ${JSON.stringify(payload).slice(0, 60)} without anything live`, async () => {
      const result = await renderInPage(payload);
      expect(result.pwned).toBeNull();
      expect(result.scripts).toBe(0);
      expect(result.handlers).toEqual([]);
      expect(result.badLinks).toEqual([]);
      expect(result.styles).toBe(0);
    });
  }

  it('sanitises timeline messages (kept per message number) exactly the same way', async () => {
    const same = await page.evaluate((payloads) => {
      const md = (window as unknown as { markdown: { renderMarkdown(t: string): string; renderMessageMarkdown(n: number, t: string): string } }).markdown;
      return payloads.map((text, index) => md.renderMessageMarkdown(index + 1, text) === md.renderMarkdown(text));
    }, PAYLOADS);
    expect(same).toEqual(PAYLOADS.map(() => true));
  });

  it('keeps ordinary Markdown: code, links with rel=noopener, lists', async () => {
    const html = await page.evaluate(() => {
      const host = document.getElementById('host')!;
      host.innerHTML = (window as unknown as { markdown: { renderMarkdown(t: string): string } }).markdown.renderMarkdown('- one\n- **two**\n\n```\ncode()\n```\n\n[docs](https://example.com)');
      const link = host.querySelector('a')!;
      return { items: host.querySelectorAll('li').length, bold: host.querySelector('strong')?.textContent, code: host.querySelector('pre code')?.textContent, rel: link.rel, href: link.href };
    });
    expect(html).toEqual({ items: 2, bold: 'two', code: 'code()\n', rel: 'noopener noreferrer', href: 'https://example.com/' });
  });

  it('keeps task_N buttons working and renders GFM task lists as disabled checkboxes (issue 15 item 10)', async () => {
    const result = await page.evaluate(() => {
      const host = document.getElementById('host')!;
      const md = (window as unknown as { markdown: { renderMarkdown(t: string): string } }).markdown;
      host.innerHTML = md.renderMarkdown('See task_12.\n\n- [x] migrate\n- [ ] backfill\n\n3. third\n4. fourth\n\n| a | b |\n|:-|-:|\n| 1 | 2 |');
      const task = host.querySelector<HTMLButtonElement>('button.task-ref')!;
      const boxes = [...host.querySelectorAll<HTMLInputElement>('input')];
      return {
        task: { number: task.dataset.task, type: task.type },
        boxes: boxes.map((box) => ({ type: box.type, checked: box.checked, disabled: box.disabled })),
        start: host.querySelector('ol')?.getAttribute('start'),
        align: [...host.querySelectorAll('th')].map((th) => th.getAttribute('align')),
      };
    });
    expect(result).toEqual({
      task: { number: '12', type: 'button' },
      boxes: [{ type: 'checkbox', checked: true, disabled: true }, { type: 'checkbox', checked: false, disabled: true }],
      start: '3',
      align: ['left', 'right'],
    });
  });

  it('keeps a hostile box inert and drops other inputs', async () => {
    const result = await renderInPage('- [x] <input type="text" onfocus="window.pwned=1" autofocus>\n- [ ] plain');
    expect(result.pwned).toBeNull();
    expect(result.handlers).toEqual([]);
    const kinds = await page.evaluate(() => [...document.querySelectorAll('#host input')].map((i) => `${(i as HTMLInputElement).type}:${(i as HTMLInputElement).disabled}`));
    expect(kinds).toEqual(['checkbox:true', 'checkbox:true']);
  });

  it('shows a script tag written as text', async () => {
    const result = await renderInPage('use <script> carefully');
    expect(result.text).toContain('<script>');
    expect(result.scripts).toBe(0);
  });
});
