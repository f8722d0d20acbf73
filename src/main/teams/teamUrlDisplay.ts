// How a team URL may be shown and stored outside the keychain: the password replaced by
// `***` and every query parameter dropped except the harmless TLS and socket ones (a
// `password=` parameter would otherwise slip through). Never throws, never echoes a URL it
// cannot parse.

const SHOWN_PARAMS = ['host', 'sslmode', 'sslrootcert'];

/** `postgres://ada:***@db.example.com:5432/team?sslmode=verify-full`. */
export function redactTeamUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return '(not a valid URL)';
  }
  const user = parsed.username ? decodeURIComponent(parsed.username) : '';
  const credentials = user || parsed.password ? `${user}${parsed.password ? ':***' : ''}@` : '';
  const params = new URLSearchParams();
  for (const name of SHOWN_PARAMS) {
    const value = parsed.searchParams.get(name);
    if (value !== null) params.set(name, value);
  }
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return `${parsed.protocol}//${credentials}${parsed.host}${parsed.pathname}${query}`;
}
