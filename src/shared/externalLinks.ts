// The safe external-link rule: a link leaves the app only when it parses as an https: URL
// with no credentials in it. Everything else (http, file, javascript, custom schemes) stays in.

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
