import { createTransport } from 'nodemailer';
import type { SmtpSettings } from '../../config/env.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

// A mail server that does not answer holds a job, never a request: these bound each step of it.
const CONNECTION_TIMEOUT_MS = 5_000;
const GREETING_TIMEOUT_MS = 5_000;
const SOCKET_TIMEOUT_MS = 10_000;

/**
 * Sends one message through SMTP_URL. Nodemailer's own logging stays off: it would print the
 * conversation, the credentials' exchange and the message (a reset link) with it.
 */
export async function sendMail(smtp: SmtpSettings, message: MailMessage): Promise<void> {
  const transport = createTransport({
    url: smtp.url,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: GREETING_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    logger: false,
    debug: false,
  });
  try {
    await transport.sendMail({ from: smtp.from, ...message });
  } finally {
    transport.close();
  }
}
