import Fastify from 'fastify';
import { simulator } from './plugin.js';
import { SimState } from './state.js';

/** `parley simulator --port N`: the Cloud API simulator on its own, its routes under /_sim as when mounted. */
export async function runSimulator(port: number, host: string): Promise<void> {
  const app = Fastify({ logger: false });
  await app.register(simulator, { prefix: '/_sim', state: new SimState() });
  await app.listen({ port, host });
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(`WhatsApp Cloud API simulator at http://${host}:${bound}/_sim (Graph API base URL)\n`);
  const stop = () => app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
