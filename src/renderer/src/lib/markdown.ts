// Message text → safe HTML: marked renders Markdown (raw HTML shows as text, images become
// links), DOMPurify then keeps only a short list of tags and attributes. Nothing an agent
// writes can become a live script, handler, frame or remote image.
import { Marked, type TokenizerAndRendererExtension } from 'marked';
import DOMPurify from 'dompurify';
import { leadingMention, mentionStart } from '../../../shared/mentions';

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** "@Juniper", "@all": shown as a mention chip, by the core's own rule ("root@vm" is not one). */
const mention: TokenizerAndRendererExtension = {
  name: 'mention',
  level: 'inline',
  start: (src) => {
    const at = mentionStart(src);
    return at < 0 ? undefined : at;
  },
  tokenizer(src, tokens) {
    const found = leadingMention(src, tokens.at(-1)?.raw.at(-1) ?? '');
    return found ? { type: 'mention', raw: found.raw, name: found.name } : undefined;
  },
  renderer: (token) => `<span class="mention">@${escapeHtml(String(token.name))}</span>`,
};

/** "task_7": a button that opens the task drawer. */
const taskRef: TokenizerAndRendererExtension = {
  name: 'taskRef',
  level: 'inline',
  start: (src) => {
    const match = /\btask_[1-9]/.exec(src);
    return match ? match.index : undefined;
  },
  tokenizer(src) {
    const match = /^task_([1-9]\d{0,9})\b/.exec(src);
    return match ? { type: 'taskRef', raw: match[0], number: match[1] } : undefined;
  },
  renderer: (token) => `<button type="button" class="task-ref" data-task="${escapeHtml(String(token.number))}">task_${escapeHtml(String(token.number))}</button>`,
};

const marked = new Marked({ gfm: true, breaks: true, async: false });
marked.use({
  extensions: [mention, taskRef],
  renderer: {
    html: ({ text }) => escapeHtml(text),
    image: ({ href, text }) => `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`,
  },
});

const ALLOWED_TAGS = [
  'p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'hr',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'button', 'input',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'data-task', 'type', 'start', 'align', 'checked', 'disabled'];
/** The allowed attributes whose values are never URLs. */
const NON_URI_ATTR = ['data-task', 'type', 'start', 'align'];

let hooked = false;
function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      node.setAttribute('rel', 'noopener noreferrer');
      node.removeAttribute('target');
    }
    // GFM task-list boxes only: any other input becomes inert text.
    if (node.nodeName === 'INPUT') {
      if (node.getAttribute('type') !== 'checkbox') node.remove();
      else node.setAttribute('disabled', '');
    }
  });
}

function sanitisedHtml(text: string): string {
  installHooks();
  return DOMPurify.sanitize(marked.parse(text, { async: false }), {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    // DOMPurify holds every attribute value but these to the URI rule above, which "button",
    // "checkbox" or "12" never pass: task_N buttons and task-list boxes would lose them.
    ADD_URI_SAFE_ATTR: NON_URI_ATTR,
  });
}

const cache = new Map<string, string>();
const CACHE_LIMIT = 3000;

/** Sanitised HTML for Markdown text (memoised: views re-render often). */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const html = sanitisedHtml(text);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(text, html);
  return html;
}

/**
 * Timeline messages, by number, with the text each was rendered from: a long room's rows
 * mount and unmount as the reader scrolls, and none of them should be parsed twice. Sized
 * for a few thousand rows of scrolling; the least recently shown go first.
 */
const messages = new Map<number, { text: string; html: string }>();
const MESSAGE_CACHE_LIMIT = 5000;

/** Sanitised HTML for message `number`'s text; parsed once per number and text. */
export function renderMessageMarkdown(number: number, text: string): string {
  const hit = messages.get(number);
  messages.delete(number); // re-inserted below: the Map's order is the order of use
  if (hit !== undefined && hit.text === text) {
    messages.set(number, hit);
    return hit.html;
  }
  const html = sanitisedHtml(text);
  if (messages.size >= MESSAGE_CACHE_LIMIT) messages.delete(messages.keys().next().value as number);
  messages.set(number, { text, html });
  return html;
}

/** Whether message `number`'s text is already rendered (nothing left to prepare). */
export function isMessageMarkdownReady(number: number, text: string): boolean {
  return messages.get(number)?.text === text;
}
