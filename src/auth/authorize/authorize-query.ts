/**
 * The query of `/authorize` as given: a parameter given once is a string; one given more than
 * once (an array) is only named, among `repeated` (RFC 6749 §3.1: "MUST NOT be included more
 * than once").
 */
export interface AuthorizeQuery {
  single(name: string): string | undefined;
  repeated: readonly string[];
}

export function readAuthorizeQuery(query: Record<string, unknown>): AuthorizeQuery {
  return {
    single: (name) => (typeof query[name] === 'string' ? (query[name] as string) : undefined),
    repeated: Object.keys(query).filter((name) => typeof query[name] !== 'string'),
  };
}
