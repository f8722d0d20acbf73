// @vitest-environment happy-dom
// Message Markdown features people see: mention and task chips, code left alone.
// (Sanitising is checked in real Chromium: markdownSanitising.test.ts.)
import { describe, expect, it } from 'vitest';
import { isMessageMarkdownReady, renderMarkdown, renderMessageMarkdown } from '../../src/renderer/src/lib/markdown';

function dom(text: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = renderMarkdown(text);
  return host;
}

describe('message Markdown', () => {
  it('turns @mentions and task ids into chips', () => {
    const host = dom('@Juniper please look at task_12, and @all too');
    expect([...host.querySelectorAll('.mention')].map((e) => e.textContent)).toEqual(['@Juniper', '@all']);
    const task = host.querySelector<HTMLButtonElement>('button.task-ref')!;
    expect(task.dataset.task).toBe('12');
  });

  it('leaves mentions and task ids inside code alone', () => {
    const host = dom('`@Juniper task_3`');
    expect(host.querySelector('.mention, .task-ref')).toBeNull();
  });

  it('does not take an e-mail address for a mention', () => {
    expect(dom('write to ada@example.com').querySelector('.mention')).toBeNull();
  });

  it("leaves a person's team name user@host alone, and shows @user@host as one chip (issue 35)", () => {
    const chips = (text: string) => [...dom(text).querySelectorAll('.mention')].map((e) => e.textContent);
    expect(chips('Hi root@vm!')).toEqual([]);
    expect(chips('Hi **root**@vm and x_@Cedar')).toEqual(['@vm']);
    expect(chips('Thanks @root@vm, merged. @Cedar: next, @Juniper.')).toEqual(['@root@vm', '@Cedar', '@Juniper']);
    expect(dom('Thanks @Cedar: next').textContent).toBe('Thanks @Cedar: next\n');
    expect(chips('(@Cedar) and @org/team:lead')).toEqual(['@Cedar', '@org/team:lead']);
  });

  it('shows raw HTML as text', () => {
    expect(dom('a <b>tag</b>').textContent?.trim()).toBe('a <b>tag</b>');
  });

  it("keeps a message's HTML by number and text, and renders it again when the text differs", () => {
    expect(isMessageMarkdownReady(41_001, 'first **draft**')).toBe(false);
    expect(renderMessageMarkdown(41_001, 'first **draft**')).toContain('<strong>draft</strong>');
    expect(isMessageMarkdownReady(41_001, 'first **draft**')).toBe(true);
    expect(renderMessageMarkdown(41_001, 'now `code`')).toContain('<code>code</code>');
    expect(isMessageMarkdownReady(41_001, 'first **draft**')).toBe(false);
  });
});
