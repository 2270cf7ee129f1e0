import { Type } from 'typebox';

/** The webhooks API's contract (issue 24): validates requests, drives OpenAPI and the SDK's types. */
const Timestamp = Type.String({ format: 'date-time' });
const EventTypeSchema = Type.Union(
  [
    Type.Literal('saved_search.matched'),
    Type.Literal('application.approved'),
    Type.Literal('application.rejected'),
    Type.Literal('key.revoked'),
    Type.Literal('key.rolled'),
    Type.Literal('key.expiring'),
    Type.Literal('import.completed'),
  ],
  { description: 'An event type.' },
);

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String({ description: 'Endpoint id, `whe_…`.' }),
    url: Type.String(),
    environment: Type.Union([Type.Literal('production'), Type.Literal('testing')]),
    eventTypes: Type.Array(EventTypeSchema, { description: 'The event types sent; empty: all of them.' }),
    state: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    disabledReason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the endpoint was disabled (every delivery failed for 5 days).',
    }),
    createdAt: Timestamp,
  },
  { additionalProperties: false, title: 'WebhookEndpoint' },
);

export const WebhookEndpointInputSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'https (http on the testing environment). A host resolving to a loopback, private, link-local or metadata address is refused.',
    }),
    eventTypes: Type.Optional(
      Type.Array(EventTypeSchema, { maxItems: 20, description: 'Omitted or empty: all.' }),
    ),
  },
  { additionalProperties: false, title: 'WebhookEndpointInput' },
);

export const CreatedWebhookEndpointSchema = Type.Object(
  {
    ...WebhookEndpointSchema.properties,
    secret: Type.String({
      description:
        'The signing secret, `whsec_…` (Standard Webhooks). Shown once: only its encrypted form is kept.',
    }),
  },
  { additionalProperties: false, title: 'CreatedWebhookEndpoint' },
);

export const WebhookTestSchema = Type.Object(
  { messageId: Type.String({ description: 'The `webhook-id` of the test event queued for delivery.' }) },
  { additionalProperties: false, title: 'WebhookTest' },
);
