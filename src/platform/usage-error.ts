/**
 * A request to a service that cannot be carried out as asked (unknown project, duplicate email,
 * bad redirect URI). The CLI prints the message and exits 2; HTTP layers map it to their own
 * problem codes. Expected outcomes, so no stack trace is ever shown for one.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid' | 'not_found' | 'conflict' = 'invalid',
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
