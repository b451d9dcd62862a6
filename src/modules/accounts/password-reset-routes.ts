import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { clientAddressKey } from '../../lib/client-address.js';
import { requestPasswordReset } from './request-password-reset.js';
import { resetPassword } from './reset-password.js';
import { ForgotBody, ResetBody } from './schemas.js';

/** "Forgot your password?": a link by e-mail, then a new password with it. */
export function registerPasswordResetRoutes(app: RestApp): void {
  app.post(
    '/password-reset',
    { config: { public: true }, schema: { body: ForgotBody } },
    async (request, reply) => {
      const { retryAfterSeconds } = await requestPasswordReset(
        app.ctx,
        request.body.email,
        clientAddressKey(request.ip),
      );
      if (retryAfterSeconds !== undefined) {
        reply.header('Retry-After', String(retryAfterSeconds));
        const minutes = Math.ceil(retryAfterSeconds / 60);
        throw new ApiError('rate_limited', `Too many reset requests; try again in ${minutes} minutes`);
      }
      return reply.code(202).send({ result: true });
    },
  );

  app.post(
    '/password-reset/complete',
    { config: { public: true }, schema: { body: ResetBody } },
    async (request) => {
      await resetPassword(app.ctx.db, request.body.token, request.body.password);
      return { result: true };
    },
  );
}
