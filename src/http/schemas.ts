import { Type } from 'typebox';
import { ERRORS } from './errors.js';

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
  { additionalProperties: false },
);

/** Response declaration for problem statuses, so OpenAPI shows the media type clients receive. */
export function problemResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: Object.entries(ERRORS)
          .filter(([, e]) => e.status === status)
          .map(([code]) => `\`${code}\``)
          .join(', '),
        content: { 'application/problem+json': { schema: ProblemSchema } },
      },
    ]),
  );
}

export const API_KEY_SECURITY: { [scheme: string]: string[] }[] = [{ ApiKeyHeader: [] }, { ApiKeyQuery: [] }];
