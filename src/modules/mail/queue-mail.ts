import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { inTransaction } from '../../jobs/enqueue.js';
import { type MailMessage, sendMail } from './send-mail.js';

/** Whether this server can send e-mail (SMTP_URL and MAIL_FROM are set). */
export const canSendMail = (ctx: AppContext): boolean => ctx.config.smtp !== undefined;

export function requireMail(ctx: AppContext, instead: string): void {
  if (!canSendMail(ctx)) throw new ApiError('conflict', `This server does not send e-mail; ${instead}`);
}

/**
 * Queues a message in the caller's transaction (it goes out if and only if that commits), sealed
 * under the server's secret key: the links it carries are as good as passwords, and the job table
 * keeps finished jobs for a while.
 */
export async function queueMail(ctx: AppContext, tx: Queryable, message: MailMessage): Promise<void> {
  if (!ctx.queue) throw new Error('the job queue is not running in this process');
  await ctx.queue.send('mail.send', { sealed: ctx.secrets.seal(JSON.stringify(message)) }, inTransaction(tx));
}

/** The mail.send job. Its failures name the server's answer, never the message or the URL's password. */
export async function deliverMail(
  ctx: AppContext,
  data: { sealed: string },
  lastTry: boolean,
): Promise<void> {
  const smtp = ctx.config.smtp;
  if (!smtp) {
    ctx.log.warn('an e-mail was queued but SMTP_URL is no longer set: dropped');
    return;
  }
  const message = JSON.parse(ctx.secrets.open(data.sealed)) as MailMessage;
  try {
    await sendMail(smtp, message);
  } catch (err) {
    const e = err as { code?: string; responseCode?: number; message?: string };
    const failure = { code: e.code, responseCode: e.responseCode, reason: e.message };
    if (lastTry) ctx.log.error(failure, 'e-mail not sent after its last try: given up');
    else ctx.log.warn(failure, 'e-mail not sent; it will be tried again');
    throw new Error(`SMTP send failed (${e.code ?? e.responseCode ?? 'no answer'})`);
  }
}
