// Where GitHub is and which OAuth App signs the person in (mcp-tools.md §8): the client id
// from the app's settings or LETAGENTS_GITHUB_CLIENT_ID, and the web and API base URLs,
// which must be https except for local test servers.

export const DEFAULT_GITHUB_WEB_URL = 'https://github.com';
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
export const DEFAULT_GITHUB_SCOPES = 'read:user';

/** Shown to the person when no client id is configured (ui.md "GitHub sign-in"). */
export const OAUTH_APP_HELP =
  'To sign in with GitHub, LetAgents needs the client id of a GitHub OAuth App with device flow enabled. ' +
  'On GitHub open Settings → Developer settings → OAuth Apps → New OAuth App; give it any name and homepage URL, ' +
  'tick "Enable Device Flow", enter http://127.0.0.1 as the authorization callback URL (the form requires one; LetAgents never uses it) ' +
  'and register the app. ' +
  'Copy its Client ID (no client secret is needed) into LetAgents → Settings → GitHub client id, ' +
  'or set LETAGENTS_GITHUB_CLIENT_ID before starting the app.';

export interface GitHubEndpoints {
  /** The web base without a trailing slash, e.g. https://github.com. */
  webUrl: string;
  /** The API base without a trailing slash, e.g. https://api.github.com. */
  apiUrl: string;
  scopes: string;
}

export type EndpointsResult = { ok: true; endpoints: GitHubEndpoints } | { ok: false; detail: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Normalises a base URL; plain http only for the loopback test servers. */
function checkBase(variable: string, value: string): { ok: true; url: string } | { ok: false; detail: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, detail: `${variable} is not a URL: ${value}` };
  }
  const secure = url.protocol === 'https:';
  const localHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (!secure && !localHttp) {
    return { ok: false, detail: `${variable} must be an https URL (plain http only for 127.0.0.1 or localhost): ${value}` };
  }
  if (url.search || url.hash || url.username || url.password) {
    return { ok: false, detail: `${variable} must be a plain base URL without query, fragment or credentials: ${value}` };
  }
  return { ok: true, url: `${url.origin}${url.pathname}`.replace(/\/+$/, '') };
}

export function resolveGitHubEndpoints(env: NodeJS.ProcessEnv): EndpointsResult {
  const web = checkBase('LETAGENTS_GITHUB_WEB_URL', env.LETAGENTS_GITHUB_WEB_URL?.trim() || DEFAULT_GITHUB_WEB_URL);
  if (!web.ok) return web;
  const api = checkBase('LETAGENTS_GITHUB_API_URL', env.LETAGENTS_GITHUB_API_URL?.trim() || DEFAULT_GITHUB_API_URL);
  if (!api.ok) return api;
  const scopes = env.LETAGENTS_GITHUB_SCOPES?.trim() || DEFAULT_GITHUB_SCOPES;
  return { ok: true, endpoints: { webUrl: web.url, apiUrl: api.url, scopes } };
}

/** The client id: the app's setting first (the person chose it), else the environment. */
export function resolveClientId(setting: string | null, env: NodeJS.ProcessEnv): string | null {
  return setting?.trim() || env.LETAGENTS_GITHUB_CLIENT_ID?.trim() || null;
}

/** True when `uri` is on the same origin as the web base (the device code must not go elsewhere). */
export function isOnWebOrigin(uri: string, webUrl: string): boolean {
  try {
    return new URL(uri).origin === new URL(webUrl).origin;
  } catch {
    return false;
  }
}
