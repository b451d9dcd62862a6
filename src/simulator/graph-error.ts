import type { FastifyReply } from 'fastify';

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
      fbtrace_id: 'sim',
    },
  });
}
