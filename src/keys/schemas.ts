import { type Static, Type } from 'typebox';

/**
 * `GET {base_url}/key`: the public facts of the calling API key (issue #3). Declared once: it
 * drives the response serialiser, OpenAPI and the handler's type. Never the key or its hash.
 */
export const CallingKeySchema = Type.Object(
  {
    id: Type.String({ description: 'Key id, `key_…` (public; what the portal, console and usage show).' }),
    environment: Type.Union([Type.Literal('production'), Type.Literal('testing')]),
    projectId: Type.String({ description: 'The project the key belongs to, `prj_…`.' }),
    hint: Type.String({
      description: 'What lists show of the key so its owner can recognise it: `vk_test_…a1B2`.',
    }),
    kind: Type.Union([Type.Literal('secret'), Type.Literal('publishable')], {
      description: '`secret` keys live on servers; `publishable` keys (`vk_pub_…`) in browsers and apps.',
    }),
    scopes: Type.Array(
      Type.Union([
        Type.Literal('search'),
        Type.Literal('auth'),
        Type.Literal('api'),
        Type.Literal('offers:write'),
      ]),
      {
        description:
          'What the key may do: `search`; `auth` (the auth server); `api` (the other key routes); `offers:write` (granted by the operator).',
      },
    ),
    refreshAllowed: Type.Boolean({
      description: 'Whether the operator granted the refresh permission (`{auth_url}/refresh`).',
    }),
    rateLimit: Type.Union(
      [
        Type.Object(
          {
            requestsPerSecond: Type.Integer({ description: 'The plan, as in `RateLimit-Limit`.' }),
            burst: Type.Integer({ description: 'Requests allowed at once when the bucket is full.' }),
            source: Type.Union([Type.Literal('key'), Type.Literal('environment')], {
              description:
                '`key`: a plan set for this key; `environment`: the default plan of its environment.',
            }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: '`null` when this deployment does not limit requests (`RATE_LIMITING=false`).' },
    ),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, title: 'CallingKey' },
);
export type CallingKey = Static<typeof CallingKeySchema>;
