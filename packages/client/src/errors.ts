import type { ErrorCode, Problem } from './types.js';

/** RFC 6749 §5.2 errors of `{auth_url}/token`, as `exchangeCode` reports them. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

/**
 * Every failure the client reports: an error answer of the API (problem+json), a
 * response that is not one, or a network failure after the retries.
 *
 * @example
 * ```ts
 * try {
 *   await vitrine.offers.get('off_missing');
 * } catch (error) {
 *   if (error instanceof VitrineError && error.code === 'offer_not_found') showNotFound();
 *   else throw error;
 * }
 * ```
 */
export class VitrineError extends Error {
  override readonly name = 'VitrineError';
  /** HTTP status; 0 when no response arrived (network failure, aborted). */
  readonly status: number;
  /**
   * The API's stable code (docs/errors.md), or one of the client's own:
   * `network_error` (no response), `aborted` (the signal fired), `unexpected_response`
   * (an answer that is not the API's JSON or problem+json).
   */
  readonly code: ErrorCode | OAuthErrorCode | 'network_error' | 'aborted' | 'unexpected_response';
  /** Human-readable explanation, specific to this occurrence. */
  readonly detail: string;
  /** The server's request id (`X-Request-Id`), to quote when asking for help. */
  readonly requestId: string | null;
  /** The whole problem+json body, when the API sent one (with `errors` on `invalid_parameter`). */
  readonly problem: Problem | null;

  constructor(init: {
    status: number;
    code: VitrineError['code'];
    detail: string;
    requestId?: string | null;
    problem?: Problem | null;
    cause?: unknown;
  }) {
    super(`${init.code}: ${init.detail}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.requestId = init.requestId ?? null;
    this.problem = init.problem ?? null;
  }
}
