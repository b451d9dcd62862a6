import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

const fbtraceId = () => randomBytes(9).toString('base64url');

/** An error answered as the Graph API shapes it. */
export function graphError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  details?: string,
  subcode?: number,
) {
  return reply.code(status).send({
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(subcode ? { error_subcode: subcode } : {}),
      error_data: { messaging_product: 'whatsapp', details: details ?? message },
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
