import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.js';
import type { Db } from './db/db.js';
import type { JobQueue } from './jobs/enqueue.js';
import type { SecretBox } from './lib/secret-box.js';
import type { KeyVerifier } from './modules/api-keys/key-verifier.js';
import type { MediaStore } from './modules/media/store.js';
import type { StoredNumber } from './modules/messaging/number-types.js';
import type { SendingCache } from './modules/messaging/sending-cache.js';
import type { RateLimiter } from './modules/rate-limit/limiter.js';
import type { StoredTemplate } from './modules/templates/components.js';

/** What routes, jobs and CLI commands are given: built once in compose.ts, passed in, never imported. */
export interface AppContext {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  limiter: RateLimiter;
  keys: KeyVerifier;
  sending: SendingCache<StoredNumber, StoredTemplate>;
  queue: JobQueue | null;
  secrets: SecretBox;
  media: MediaStore;
}
