import { Type } from 'typebox';
import { ERRORS, type ErrorCode, errorTypeUrl } from './errors.js';

/** The problem+json wire shape (RFC 9457 + `code`, `requestId`, `errors`), declared once. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    code: Type.Union(
      Object.keys(ERRORS).map((code) => Type.Literal(code)),
      { description: 'Stable machine-readable code; see docs/errors.md.' },
    ),
    requestId: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ parameter: Type.String(), message: Type.String() }), {
        description: 'Present on `invalid_parameter`: one entry per offending parameter.',
      }),
    ),
  },
  { additionalProperties: false, title: 'Problem' },
);

/**
 * Response declaration for problem statuses, so OpenAPI shows the media type clients receive,
 * with one real example per code of that status (issue 15: not a schema-made `status: 0`).
 */
export function problemResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => {
      const codes = (Object.keys(ERRORS) as ErrorCode[]).filter((code) => ERRORS[code].status === status);
      return [
        status,
        {
          description: codes.map((code) => `\`${code}\``).join(', '),
          content: {
            'application/problem+json': {
              schema: ProblemSchema,
              examples: Object.fromEntries(
                codes.map((code) => [
                  code,
                  {
                    summary: ERRORS[code].title,
                    value: {
                      // Relative here; the served document puts the listener's origin in front.
                      type: errorTypeUrl(code, ''),
                      title: ERRORS[code].title,
                      status,
                      detail: `${ERRORS[code].title}.`,
                      instance: '/v1/offers/',
                      code,
                      requestId: 'req_3kTMd9RAnq0LZpOXbe2w',
                    },
                  },
                ]),
              ),
            },
          },
        },
      ];
    }),
  );
}

export const API_KEY_SECURITY: { [scheme: string]: string[] }[] = [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }];
