import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sendMail } from './send-mail.js';

describe('sendMail', () => {
  it('gives up on a server that accepts the connection and never greets, within its time bound', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const started = Date.now();
    try {
      const sending = sendMail(
        { url: `smtp://user:hunter2-secret@127.0.0.1:${port}`, from: 'parley@example.com' },
        { to: 'someone@example.com', subject: 'Hi', text: 'Hello' },
      );
      const err = (await sending.catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(Error);
      expect(err.message).not.toContain('hunter2-secret');
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  }, 15_000);
});
