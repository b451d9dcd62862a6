import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user name the client signed in with, if it did. */
  user: string | null;
  /** Headers and body as sent, the body's quoted-printable soft breaks and escapes undone. */
  raw: string;
}

export interface TestSmtp {
  /** SMTP_URL for this server, signing in as `user`:`password`. */
  url: string;
  password: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A local SMTP server on a random port, keeping every message it is given. */
export async function startSmtp(): Promise<TestSmtp> {
  const password = `smtp-secret-${Math.random().toString(36).slice(2)}`;
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.password !== password) return callback(new Error('Invalid username or password'));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://parley:${password}@127.0.0.1:${port}`,
    password,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The first link to the app in a mail. */
export function linkIn(mail: ReceivedMail, path: string): string {
  const m = new RegExp(`https?://\\S+${path}/[A-Za-z0-9]+`).exec(mail.raw);
  if (!m) throw new Error(`no ${path} link in the mail:\n${mail.raw}`);
  return m[0];
}
