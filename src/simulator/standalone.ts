import { resolve } from 'node:path';
import Fastify from 'fastify';
import { loadSimulatorToken } from '../config/env.js';
import { simulator } from './plugin.js';
import { SimState } from './state.js';

/**
 * `parley simulator --port N`: the Cloud API simulator on its own, its routes under /_sim as when
 * mounted. Its operator token is SIMULATOR_TOKEN, or DATA_DIR/simulator.token (generated once); its
 * webhooks go to Parley at APP_URL (default http://127.0.0.1:3000, Parley's own default).
 */
export async function runSimulator(port: number, host: string, env = process.env): Promise<void> {
  const dataDir = resolve(env.DATA_DIR || './data');
  const operatorToken = loadSimulatorToken(env.SIMULATOR_TOKEN, dataDir, undefined);
  const receiverBase = (env.APP_URL || `http://127.0.0.1:${env.PORT || 3000}`).replace(/\/+$/, '');
  const app = Fastify({ logger: false });
  await app.register(simulator, { prefix: '/_sim', state: new SimState(), operatorToken, receiverBase });
  await app.listen({ port, host });
  const address = app.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  const tokenFrom = env.SIMULATOR_TOKEN ? 'SIMULATOR_TOKEN' : `${dataDir}/simulator.token`;
  process.stdout.write(
    `WhatsApp Cloud API simulator at http://${host}:${bound}/_sim (Graph API base URL); ` +
      `webhooks to ${receiverBase}, control routes take the token in ${tokenFrom}\n`,
  );
  const stop = () => app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
