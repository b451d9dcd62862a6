import type { AppContext } from '../../context.js';
import { queueMail, requireMail } from '../mail/queue-mail.js';
import { countAttempts } from './login-throttle.js';
import { createResetLink, RESET_VALID_MINUTES } from './reset-tokens.js';
import { userByEmail } from './users.js';

// Requests allowed an hour: per e-mail address (someone's inbox flooded), per client address.
const PER_EMAIL = 5;
const PER_ADDRESS = 20;

/**
 * "Forgot your password?": e-mails a reset link when an account has this address. The caller is
 * answered the same either way (no account is revealed); only the mail differs. Counted per address
 * whether or not an account has it, so the limit reveals nothing either.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  email: string,
  clientAddress: string,
): Promise<{ retryAfterSeconds?: number }> {
  requireMail(ctx, "ask the server's operator to reset your password");
  const attempt = await countAttempts(
    ctx.db,
    [
      { subject: `reset-email:${email.trim().toLowerCase()}`, limit: PER_EMAIL },
      { subject: `reset-ip:${clientAddress}`, limit: PER_ADDRESS },
    ],
    60,
  );
  if (!attempt.allowed) return { retryAfterSeconds: attempt.retryAfterSeconds };
  const user = await userByEmail(ctx.db, email.trim());
  if (!user) return {};
  await ctx.db.transaction(async (tx) => {
    const link = await createResetLink(tx, ctx.config.appUrl, user.id);
    await queueMail(ctx, tx, {
      to: user.email,
      subject: 'Reset your Parley password',
      text:
        `Someone asked to reset the password of your Parley account (${user.email}) at ${ctx.config.appUrl}.\n\n` +
        `Choose a new password here:\n${link.url}\n\n` +
        `The link works once, for ${RESET_VALID_MINUTES} minutes. If you did not ask, ignore this e-mail: ` +
        'your password stays as it is.\n',
    });
  });
  ctx.queue?.wake('mail.send');
  return {};
}
