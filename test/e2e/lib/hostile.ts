// Hostile Markdown/HTML for the "rendered text never executes script" flow. Every payload
// tries to set window.__pwned (or open a dialog, or navigate); `shows` is text that must
// be on screen as plain text instead.
export interface HostilePayload {
  readonly payload: string;
  readonly shows: string;
}

export const HOSTILE_PAYLOADS: readonly HostilePayload[] = [
  { payload: '<script>window.__pwned = "script"</script>', shows: '<script>window.__pwned = "script"</script>' },
  { payload: `<img src=x onerror="window.__pwned='img'">`, shows: `<img src=x onerror="window.__pwned='img'">` },
  { payload: `<svg onload="window.__pwned='svg'"><circle r="5"></circle></svg>`, shows: `<svg onload="window.__pwned='svg'">` },
  { payload: `<iframe src="javascript:parent.__pwned='iframe'"></iframe>`, shows: `<iframe src="javascript:parent.__pwned='iframe'">` },
  { payload: `<iframe srcdoc="<script>parent.__pwned='srcdoc'</script>"></iframe>`, shows: `<iframe srcdoc="<script>parent.__pwned='srcdoc'</script>">` },
  { payload: `[a harmless looking link](javascript:window.__pwned='link')`, shows: 'a harmless looking link' },
  { payload: `<a href="javascript:alert('anchor')">a raw anchor</a>`, shows: `<a href="javascript:alert('anchor')">` },
  { payload: `![a picture](https://example.invalid/x.png" onerror="window.__pwned='md-image')`, shows: 'a picture' },
  { payload: `<details open ontoggle="window.__pwned='details'">toggle</details>`, shows: `<details open ontoggle="window.__pwned='details'">` },
  { payload: `<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned='mxss'">`, shows: '<math><mtext><table><mglyph><style>' },
  { payload: `<form action="javascript:window.__pwned='form'"><button>Send it</button></form>`, shows: `<form action="javascript:window.__pwned='form'">` },
  { payload: `<meta http-equiv="refresh" content="0;url=https://example.invalid/">`, shows: '<meta http-equiv="refresh"' },
  { payload: `<object data="javascript:window.__pwned='object'"></object>`, shows: `<object data="javascript:window.__pwned='object'">` },
  { payload: '<style>body { display: none }</style>', shows: '<style>body { display: none }</style>' },
  { payload: `[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`, shows: 'data link' },
  { payload: `<a href="#" onclick="window.__pwned='click'">click me</a>`, shows: `<a href="#" onclick="window.__pwned='click'">` },
];

/** What to look for: elements that must never come out of rendering an agent's text, and
 * where the app puts such text (its own icons and forms elsewhere are fine). */
export const RENDERED_TEXT = {
  forbidden: 'script, iframe, frame, object, embed, svg, math, img, form, meta, style, link, details, video, audio, base',
  slots: '.markdown, .search-snippet, .needs-title, .task-title, .sender-name, .user-code',
};

/** Runs in the page before the app: records Content-Security-Policy violations (a blocked attempt is still a failure). */
export function trapViolations(): void {
  const w = window as unknown as { __violations: string[] };
  w.__violations = [];
  document.addEventListener('securitypolicyviolation', (event) => w.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`));
}

/**
 * In the page: what could run under `root`: forbidden elements inside rendered text, and
 * anywhere an inline handler or a URL that is not http(s), mailto or a fragment.
 */
export function liveBitsIn(root: Element, where: { forbidden: string; slots: string }): string[] {
  const found: string[] = [];
  for (const slot of root.querySelectorAll(where.slots)) {
    for (const el of slot.querySelectorAll(where.forbidden)) found.push(`<${el.localName}>`);
  }
  for (const el of root.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      if (attr.name.startsWith('on')) found.push(`${el.localName}[${attr.name}]`);
      if (['href', 'src', 'action', 'data', 'formaction', 'srcdoc'].includes(attr.name) && !/^(https?:|mailto:|#)/i.test(attr.value.trim())) {
        found.push(`${el.localName}[${attr.name}=${attr.value}]`);
      }
    }
  }
  return found;
}
