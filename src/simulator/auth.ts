import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual } from '../lib/constant-time.js';
import { graphError, invalidAccessToken } from './graph-error.js';
import type { SimState } from './state.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A Graph API route of the simulator: authenticated by a number's access token, as Meta does. */
    graph?: boolean;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const m = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
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
      const params = request.params as { phoneNumberId?: string; wabaId?: string; mediaId?: string };
      // A media id (in the number's place on GET and DELETE /{id}) is read with its owner's token.
      const media = state.media.get(params.mediaId ?? params.phoneNumberId ?? '');
      const owners = [...state.numbers.values()].filter((n) =>
        media
          ? n.phoneNumberId === media.phoneNumberId
          : params.phoneNumberId !== undefined
            ? n.phoneNumberId === params.phoneNumberId
            : n.businessAccountId === params.wabaId,
      );
      if (given === undefined || !owners.some((n) => safeEqual(given, n.accessToken))) {
        // A token Meta knows, naming an id it does not: Meta's "object does not exist" (100).
        const known = [...state.numbers.values()].some((n) => safeEqual(given ?? '', n.accessToken));
        if (owners.length === 0 && given !== undefined && known) {
          const id = params.mediaId ?? params.phoneNumberId ?? params.wabaId;
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
