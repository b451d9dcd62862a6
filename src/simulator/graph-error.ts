import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

const fbtraceId = () => randomBytes(9).toString('base64url');

/** Meta's title and details of the error codes the simulator gives (Cloud API error codes page). */
const KNOWN: Record<number, { title: string; details: string }> = {
  1: { title: 'An unknown error occurred', details: 'An unknown error occurred' },
  2: { title: 'Service temporarily unavailable', details: 'Service temporarily unavailable' },
  100: { title: 'Invalid parameter', details: 'Invalid parameter' },
  130429: { title: 'Rate limit hit', details: 'Cloud API message throughput has been reached.' },
  131026: {
    title: 'Message Undeliverable',
    details: 'Message Undeliverable.',
  },
  131047: {
    title: 'Re-engagement message',
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
  },
  131053: {
    title: 'Media upload error',
    details: 'Unable to upload the media used in the message.',
  },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details:
      'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
  },
  132000: {
    title: 'Number of parameters does not match the expected number of params',
    details: 'body: number of localizable_params does not match the expected number of params',
  },
  132012: {
    title: 'Parameter format does not match format in the created template',
    details: 'header: Format mismatch, expected IMAGE, received TEXT',
  },
  132001: {
    title: 'Template name does not exist in the translation',
    details: 'Template name does not exist in the translation',
  },
  132015: {
    title: 'Template is Paused',
    details: 'Template is paused due to low quality so it cannot be sent in a template message.',
  },
  132016: {
    title: 'Template is Disabled',
    details: 'Template has been paused too many times due to low quality and is now permanently disabled.',
  },
};

/** The HTTP status Meta answers an error code with (a code of 500-599 stands for itself). */
export function httpStatusOf(code: number): number {
  if (code === 1) return 500;
  if (code === 2) return 503;
  if (code >= 500 && code < 600) return code;
  return code === 132001 ? 404 : 400;
}

export function errorTitle(code: number): { title: string; details: string } {
  return KNOWN[code] ?? { title: 'Simulated failure', details: 'Simulated failure' };
}

/**
 * The `errors` item of a `failed` status webhook, as Meta sends it: title and message are the
 * same text, the details in error_data, and a link to the error codes page.
 */
export function statusError(code: number) {
  const { title, details } = errorTitle(code);
  return {
    code,
    title,
    message: title,
    error_data: { details },
    href: '/documentation/business-messaging/whatsapp/support/error-codes',
  };
}

/**
 * An error answered as the Graph API shapes it: `(#code) title` as the message (the Graph API's
 * form for API errors; its generic errors 1 and 2 carry no code), the details in error_data.
 */
export function graphError(
  reply: FastifyReply,
  status: number,
  code: number,
  details?: string,
  subcode?: number,
) {
  const { title, details: known } = errorTitle(code);
  return reply.code(status).send({
    error: {
      message: code === 1 || code === 2 ? title : `(#${code}) ${title}`,
      type: 'OAuthException',
      code,
      ...(subcode ? { error_subcode: subcode } : {}),
      error_data: { messaging_product: 'whatsapp', details: details ?? known },
      fbtrace_id: fbtraceId(),
    },
  });
}

/** Meta's answer to a missing, malformed or someone else's access token. */
export function invalidAccessToken(reply: FastifyReply) {
  return reply.code(401).send({
    error: {
      message: 'Invalid OAuth access token - Cannot parse access token',
      type: 'OAuthException',
      code: 190,
      fbtrace_id: fbtraceId(),
    },
  });
}
