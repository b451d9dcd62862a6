import { pino } from 'pino';

/**
 * JSON logs on stdout. Info and below are written asynchronously in 4 KiB batches: a synchronous write
 * per line blocks the event loop whenever the reader of stdout (a pipe, a container runtime) falls
 * behind. Warnings and errors are rare and are what an operator looks for after a crash, so each one
 * flushes the batch (keeping the order of lines) and reaches stdout before the call returns: a quiet
 * server would otherwise hold an error line for minutes, and kill -9 would lose it. Secrets never
 * reach the log: credentials in headers are redacted wherever a request is logged.
 */
export function createLogger(level: string) {
  const batched = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const immediate = {
    write(line: string) {
      batched.write(line);
      batched.flushSync();
    },
  };
  const logger = pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
        censor: '[redacted]',
      },
    },
    pino.multistream(
      [
        { level: 'trace', stream: batched },
        { level: 'warn', stream: immediate },
      ],
      { dedupe: true },
    ),
  );
  process.once('exit', () => batched.flushSync());
  return logger;
}
