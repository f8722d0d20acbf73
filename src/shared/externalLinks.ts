// The safe external-link rule: a link leaves the app only when it parses as an https: URL
// with no credentials in it. Everything else (http, file, javascript, custom schemes) stays in.
// Also the (wider) rule for links agents attach to tasks: https, or http on this machine.

export function safeExternalUrl(candidate: string): string | null {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || url.hostname === '') return null;
  return url.href;
}

/** Where agents' links may point on this machine, over plain http (a dev server, a local review tool). */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost']);

export const ARTIFACT_URL_RULE = 'only https: links (or http://127.0.0.1 and http://localhost) are accepted';

/**
 * The link rule for what agents attach to tasks and rooms (workflow artifacts, pr_url): an
 * https: URL, or http on this machine; no credentials. javascript:, file:, data: and the
 * like are refused when stored and never shown as links.
 */
export function isArtifactUrl(candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '' || url.hostname === '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_NAMES.has(url.hostname));
}
