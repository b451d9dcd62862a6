import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/constant-time.js';
import { graphError, invalidAccessToken } from './graph-error.js';
import type { SimState } from './state.js';
import { isUploadId, simAppId } from './uploads.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A Graph API route of the simulator: authenticated by a number's access token, as Meta does. */
    graph?: boolean;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  // Meta's Resumable Upload API writes `OAuth <token>`; every Graph route takes either.
  const m = /^(?:Bearer|OAuth) (\S+)$/i.exec(request.headers.authorization ?? '');
  return m?.[1];
}

/**
 * Every simulator route is guarded here, so none can be added open: Graph routes take the access
 * token of the number (`:phoneNumberId`) or of a number in the business account (`:wabaId`) they
 * name; everything else is a control route and takes the operator token.
 */
export function simulatorGuard(state: SimState, operatorToken: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const given = bearer(request);
    if (request.routeOptions.config.graph) {
      const params = request.params as {
        phoneNumberId?: string;
        wabaId?: string;
        mediaId?: string;
        appId?: string;
        uploadId?: string;
      };
      // A media id (in the number's place on GET and DELETE /{id}) is read with its owner's token.
      const media = state.media.get(params.mediaId ?? params.phoneNumberId ?? '');
      // An upload session (POST /{upload-id}, or GET in the number's place) with its app's tokens.
      const uploadId =
        params.uploadId ?? (isUploadId(params.phoneNumberId) ? params.phoneNumberId : undefined);
      const appId = uploadId !== undefined ? (state.uploads.get(uploadId)?.appId ?? '') : params.appId;
      const owners = [...state.numbers.values()].filter(
        (n) =>
          media
            ? n.phoneNumberId === media.phoneNumberId
            : appId !== undefined
              ? simAppId(n) === appId
              : params.phoneNumberId !== undefined
                ? n.phoneNumberId === params.phoneNumberId
                : params.wabaId !== undefined
                  ? n.businessAccountId === params.wabaId
                  : true, // GET /app: any number's token names its app
      );
      if (given === undefined || !owners.some((n) => safeEqual(given, n.accessToken))) {
        // A token Meta knows, naming an id it does not: Meta's "object does not exist" (100).
        const known = [...state.numbers.values()].some((n) => safeEqual(given ?? '', n.accessToken));
        if (owners.length === 0 && given !== undefined && known) {
          const id = uploadId ?? params.appId ?? params.mediaId ?? params.phoneNumberId ?? params.wabaId;
          return graphError(
            reply,
            400,
            100,
            `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          );
        }
        return invalidAccessToken(reply);
      }
      return;
    }
    if (given === undefined || !safeEqual(given, operatorToken)) {
      return reply.code(401).send({
        error: 'unauthorized',
        message:
          'The simulator control routes need its operator token: Authorization: Bearer <token> ' +
          '(SIMULATOR_TOKEN, or DATA_DIR/simulator.token in embedded mode; `parley demo --json` prints it)',
      });
    }
  };
}
