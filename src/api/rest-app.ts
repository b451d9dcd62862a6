import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { AppContext } from '../context.js';
import type { EffectReplay } from './effect-replay.js';
import type { Principal } from './principal.js';

export type RestApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    auth: Principal | null;
    /** The authenticated key's principal; only on routes behind API-key authentication. */
    principal(): Principal;
    idempotencyKey: string | null;
  }
  interface FastifyContextConfig {
    /** The route honours the Idempotency-Key header; an EffectReplay if it records effects, not answers. */
    idempotent?: boolean | EffectReplay;
  }
}
