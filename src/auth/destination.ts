/**
 * `destination` of `/connect`: the auth server redirects tokens only to a URL
 * registered on the key's project. The given string is parsed by the WHATWG URL parser (what
 * browsers use), compared by exact scheme, host, port and path with the registered URIs (stored
 * normalised the same way), and the redirect goes to that parsed URL, never to the raw string:
 * what was checked is what the browser gets.
 */
export const MAX_DESTINATION_LENGTH = 2048;

export type DestinationCheck = { ok: true; url: URL } | { ok: false; reason: string };

export function checkDestination(raw: string | undefined, registered: readonly string[]): DestinationCheck {
  if (raw === undefined || raw === '') return { ok: false, reason: 'The destination parameter is missing.' };
  if (raw.length > MAX_DESTINATION_LENGTH) return { ok: false, reason: 'The destination is too long.' };
  // Whitespace, control characters and backslashes are legal to some parsers and not to others;
  // a registered destination never needs them, so refuse instead of guessing.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(raw)) {
    return { ok: false, reason: 'The destination contains characters a URL must not contain.' };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'The destination is not an absolute URL.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'The destination must be an http or https URL.' };
  }
  // `https://@host/` has an empty userinfo the parser drops: look at the raw authority too.
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(raw)?.[1] ?? '';
  if (url.username !== '' || url.password !== '' || authority.includes('@')) {
    return { ok: false, reason: 'The destination must not contain user information.' };
  }
  if (raw.includes('#')) return { ok: false, reason: 'The destination must not contain a fragment.' };
  const base = `${url.protocol}//${url.host}${url.pathname}`;
  if (!registered.includes(base)) {
    return { ok: false, reason: 'This destination is not registered for the application.' };
  }
  return { ok: true, url };
}

/** The redirect after login: the destination with the tokens (and `state`) set in its query. */
export function redirectWithTokens(
  destination: URL,
  params: { jwt: string; refresh: string | null; state: string | null },
): string {
  const url = new URL(destination.href);
  for (const name of ['jwt', 'refresh', 'state']) url.searchParams.delete(name);
  url.searchParams.set('jwt', params.jwt);
  if (params.refresh !== null) url.searchParams.set('refresh', params.refresh);
  if (params.state !== null) url.searchParams.set('state', params.state);
  return url.href;
}
