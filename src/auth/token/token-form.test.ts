import { describe, expect, it } from 'vitest';
import { readTokenForm } from './token-form.js';

describe('readTokenForm', () => {
  it('takes a parsed form whose parameters each came once', () => {
    const form = { grant_type: 'refresh_token', refresh_token: 'vrt_x' };
    expect(readTokenForm(form)).toEqual({ ok: true, form });
    expect(readTokenForm({})).toEqual({ ok: true, form: {} });
  });

  it('refuses a body that is not a form (RFC 6749 §3.2)', () => {
    for (const body of [undefined, null, 'grant_type=refresh_token']) {
      expect(readTokenForm(body)).toEqual({
        ok: false,
        error: 'invalid_request',
        description: 'Send the parameters as application/x-www-form-urlencoded.',
      });
    }
  });

  it('names every parameter given more than once (RFC 6749 §3.1)', () => {
    expect(readTokenForm({ grant_type: ['a', 'b'], code: 'c', scope: ['x', 'y'] })).toEqual({
      ok: false,
      error: 'invalid_request',
      description: 'Parameters given more than once: grant_type, scope.',
    });
  });
});
