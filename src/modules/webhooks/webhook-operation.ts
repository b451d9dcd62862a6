import type { TSchema } from 'typebox';
import { Type } from 'typebox';

const VERIFY = [
  'POSTed to each endpoint subscribed to it (Settings › Developer, or POST /webhooks), signed per',
  '[Standard Webhooks](https://www.standardwebhooks.com/): `webhook-id` (the same on every retry of one',
  'delivery: drop one you have seen), `webhook-timestamp` (Unix seconds: refuse one older than five',
  'minutes) and `webhook-signature` (`v1,` then base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`',
  'keyed by the base64 part of your `whsec_...` secret). An answer other than 2xx within 10 seconds is',
  'retried with backoff. Verify the raw body before parsing it, for example in Node.js:',
  '',
  '```js',
  "import { Webhook } from 'standardwebhooks';",
  'const event = new Webhook(process.env.PARLEY_WEBHOOK_SECRET).verify(rawBody, {',
  "  'webhook-id': req.headers['webhook-id'],",
  "  'webhook-timestamp': req.headers['webhook-timestamp'],",
  "  'webhook-signature': req.headers['webhook-signature'],",
  '}); // throws on a bad signature or an old timestamp',
  '```',
].join('\n');

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header' as const,
  required: true,
  description,
  schema: { type: 'string' as const },
  example,
});

const HEADERS = [
  header('webhook-id', 'The delivery: the same on each retry of it', 'evt_4Qz8Lw1m_we_9Tk2'),
  header('webhook-timestamp', 'When it was signed, in Unix seconds', '1795860902'),
  header(
    'webhook-signature',
    'Space-separated `v1,<base64 HMAC-SHA256>` signatures',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

/**
 * An outbound event's entry in the OpenAPI document's `webhooks`: the POST a subscriber receives,
 * `{type, timestamp, data}` with its Standard Webhooks headers and how to verify them.
 */
export function webhookOperation(
  type: string,
  operationId: string,
  summary: string,
  data: TSchema,
  example: Record<string, unknown>,
) {
  return {
    post: {
      operationId,
      summary,
      description: VERIFY,
      tags: ['webhooks'],
      parameters: HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: Type.Object({
              type: Type.Literal(type),
              timestamp: Type.String({ format: 'date-time' }),
              data,
            }),
            example: { type, timestamp: '2026-11-28T10:15:02.512Z', data: example },
          },
        },
      },
      responses: {
        '2XX': { description: 'Received: not sent again' },
        '4XX': { description: 'Refused (a bad signature, say): retried with backoff, as any other answer' },
      },
    },
  };
}
