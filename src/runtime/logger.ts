import { pino } from 'pino';

/**
 * JSON logs on stdout, written asynchronously in 4 KiB batches: a synchronous write per line blocks
 * the event loop whenever the reader of stdout (a pipe, a container runtime) falls behind. Secrets
 * never reach the log: credentials in headers are redacted wherever a request is logged.
 */
export function createLogger(level: string) {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const logger = pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
        censor: '[redacted]',
      },
    },
    destination,
  );
  process.once('exit', () => destination.flushSync());
  return logger;
}
