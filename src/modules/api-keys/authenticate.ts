import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { KeyVerifier } from './key-verifier.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const MAX_KEY_LENGTH = 128;

/** onRequest hook: `Authorization: Bearer <key>` or `X-API-Key: <key>`; anything else is a 401. */
export function authenticate(keys: KeyVerifier) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = presentedKey(request);
    if (!key) {
      throw new ApiError(
        'unauthorized',
        'Missing API key: send Authorization: Bearer <key> or X-API-Key: <key>',
      );
    }
    const principal = key.length <= MAX_KEY_LENGTH ? await keys.verify(key) : null;
    if (!principal) throw new ApiError('unauthorized', 'The API key is invalid or has been revoked');
    request.auth = principal;
  };
}

function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization) return BEARER.exec(authorization)?.[1] ?? '';
  const header = request.headers['x-api-key'];
  return Array.isArray(header) ? header[0] : header;
}
