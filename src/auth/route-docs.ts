import type { FastifySchemaCompiler } from 'fastify';
import { Type } from 'typebox';

/**
 * The auth server's browser and OAuth routes, declared for the API reference. These routes
 * check their own parameters, as the RFCs say (an HTML page while the client is unknown, a
 * redirect with `error` once it is, `{"error": …}` JSON at `/token`): their schemas describe,
 * they do not validate (`validatorCompiler` below lets every request through unchanged), and
 * the handlers send their answers as text, which no response schema touches.
 */
const describeOnly: FastifySchemaCompiler<unknown> = () => () => true;

const text = (description: string) => Type.String({ description });
const optional = (description: string) => Type.Optional(text(description));

const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String() } },
});

const oauthError = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: Type.Object(
        { error: Type.String(), error_description: Type.Optional(Type.String()) },
        { title: 'OAuthError' },
      ),
    },
  },
});

const redirect = (description: string) => ({
  description,
  headers: { Location: Type.String({ description: 'Where the browser goes next.' }) },
});

const state = optional('Opaque value returned unchanged on the redirect (at most 512 characters).');

export const CONNECT_ROUTE = {
  validatorCompiler: describeOnly,
  schema: {
    tags: ['auth'],
    operationId: 'connect',
    summary: 'Log an end user in and send them to your destination with tokens',
    description:
      "Open in a browser, not from code: shows the login page of this environment. After the end user signs in, the browser goes to `destination` with `accessToken`, `expiresAt`, `state` and (with the refresh permission) `refreshToken` in the query. The destination must be one of the project's redirect URIs. Browser apps should prefer the PKCE flow (`/authorize`, docs/auth.md): it keeps the key out of the URL.",
    security: [{ ApiKeyQuery: [] }],
    querystring: Type.Object({
      destination: text("Where to send the end user afterwards: one of the project's redirect URIs."),
      state,
    }),
    response: {
      200: html('The login page.'),
      303: redirect('Signed in already: straight to the destination with tokens.'),
      400: html('A refusal page (unknown key, destination not allowed, …).'),
    },
  },
};

export const AUTHORIZE_ROUTE = {
  validatorCompiler: describeOnly,
  schema: {
    tags: ['auth'],
    operationId: 'authorize',
    summary: 'OAuth 2.0 authorization endpoint (authorization code with PKCE)',
    description:
      'Open in a browser. `client_id` is the key id (`key_…`); the answer is a redirect to `redirect_uri` with `code` and `state`, which your app exchanges at `/token`.',
    querystring: Type.Object({
      response_type: Type.Literal('code'),
      client_id: text('The API key id, `key_…`.'),
      redirect_uri: text("One of the project's redirect URIs."),
      code_challenge: text('BASE64URL(SHA-256(code_verifier)).'),
      code_challenge_method: Type.Literal('S256'),
      scope: optional('Space-separated: `openid`, `profile`, `email`, `offline_access`.'),
      state,
      nonce: optional('Copied into the ID token.'),
      prompt: optional('`none` to fail instead of showing the login page.'),
    }),
    response: {
      200: html('The login page.'),
      303: redirect('To `redirect_uri` with `code` (or `error`) and `state`.'),
      400: html('A refusal page: the client or its redirect URI cannot be trusted.'),
    },
  },
};

export const TOKEN_ROUTE = {
  validatorCompiler: describeOnly,
  schema: {
    tags: ['auth'],
    operationId: 'token',
    summary: 'OAuth 2.0 token endpoint',
    description:
      'Exchanges an authorization code (with its `code_verifier`) or a refresh token for tokens. Clients authenticate with `client_secret_basic` or `client_secret_post` (the secret key), or send `client_id` alone for a public (publishable-key) client.',
    consumes: ['application/x-www-form-urlencoded'],
    body: Type.Object({
      grant_type: Type.Union([Type.Literal('authorization_code'), Type.Literal('refresh_token')]),
      code: optional('With `authorization_code`: the code from the redirect.'),
      redirect_uri: optional('With `authorization_code`: the same `redirect_uri` as at `/authorize`.'),
      code_verifier: optional('With `authorization_code`: the PKCE verifier.'),
      refresh_token: optional('With `refresh_token`.'),
      client_id: optional('The key id, `key_…` (`client_secret_post` or a public client).'),
      client_secret: optional('The secret key (`client_secret_post`).'),
    }),
    response: {
      200: {
        description: 'Tokens.',
        content: {
          'application/json': {
            schema: Type.Object(
              {
                access_token: Type.String(),
                token_type: Type.Literal('Bearer'),
                expires_in: Type.Integer(),
                refresh_token: Type.Optional(Type.String()),
                id_token: Type.Optional(Type.String()),
                scope: Type.Optional(Type.String()),
              },
              { title: 'OAuthTokens' },
            ),
          },
        },
      },
      400: oauthError('`invalid_request`, `invalid_grant`, `unsupported_grant_type`, …'),
      401: oauthError('`invalid_client`.'),
    },
  },
};

const userinfoSchema = {
  tags: ['auth'],
  summary: 'OpenID Connect userinfo',
  description: 'The signed-in end user, for `Authorization: Bearer <access token>`.',
  security: [{ BearerToken: [] }],
  response: {
    200: {
      description: "Claims of the end user, as the token's scope allows.",
      content: {
        'application/json': {
          schema: Type.Object(
            { sub: Type.String(), name: Type.Optional(Type.String()), email: Type.Optional(Type.String()) },
            { title: 'UserInfo' },
          ),
        },
      },
    },
    401: oauthError('`invalid_token`.'),
  },
};

export const USERINFO_GET_ROUTE = { schema: { ...userinfoSchema, operationId: 'getUserInfo' } };
export const USERINFO_POST_ROUTE = { schema: { ...userinfoSchema, operationId: 'postUserInfo' } };

export const DISCOVERY_ROUTE = {
  schema: {
    tags: ['auth'],
    operationId: 'getOpenIdConfiguration',
    summary: 'OpenID Connect discovery document',
    description:
      'Issuer, endpoints, scopes and algorithms, for off-the-shelf OAuth and OIDC clients. Also served at `{auth_url}/.well-known/oauth-authorization-server` (RFC 8414).',
    response: {
      200: {
        description: 'The discovery document.',
        content: {
          'application/json': {
            schema: Type.Object(
              { issuer: Type.String() },
              { title: 'Discovery', additionalProperties: true },
            ),
          },
        },
      },
    },
  },
};
