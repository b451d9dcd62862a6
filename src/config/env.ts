import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  appUrl: string;
  secretKey: Buffer;
  /** Whose X-Forwarded-For is believed: every hop (true), a hop count, or proxy addresses/CIDRs. */
  trustProxy: boolean | number | string;
  logLevel: string;
  /** WhatsApp Cloud API (Graph API) base URL and version for numbers connected to Meta. */
  graphApiUrl: string;
  graphApiVersion: string;
  /** How long POST /messages waits for the network before answering `queued`. */
  sendDeadlineMs: number;
  /** How long a send whose outcome is unknown waits for the network's status webhook before it is sent again. */
  sendConfirmWindowMs: number;
  /**
   * The longest wait between two tries of a failed job (JOB_RETRY_DELAY_MAX_SECONDS); unset, each
   * queue's backoff grows unbounded (a send's ninth retry comes 8.5 to 17 minutes after it was queued).
   * Tests shorten it to reach a job's last try in seconds.
   */
  jobRetryDelayMaxSeconds: number | undefined;
  /** How often each instance polls for revoked API keys, behind the notices that drop them at once. */
  apiKeyPollMs: number;
  /** Mount the Cloud API simulator at /_sim (always in embedded mode; SIMULATOR=true elsewhere). */
  simulator: boolean;
  /**
   * The operator token of the simulator's control routes (/_sim/inbound, /_sim/numbers...) when it is
   * mounted: SIMULATOR_TOKEN, or generated into DATA_DIR/simulator.token in embedded mode.
   */
  simulatorToken: string | undefined;
  /** Let outbound webhooks and HTTP steps reach private and loopback addresses (refused by default). */
  allowPrivateWebhooks: boolean;
  /** Where media bytes are kept: files under DATA_DIR/media, or the PostgreSQL database (MEDIA_STORE). */
  mediaStore: 'filesystem' | 'postgres' | 's3';
  /** The bucket of MEDIA_STORE=s3 (S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY). */
  s3: S3Settings | undefined;
  /** The largest inbound media file Parley downloads and keeps (MEDIA_MAX_BYTES); larger ones are refused. */
  mediaMaxBytes: number;
  /** Where e-mail (password resets, invitations) goes out: SMTP_URL and MAIL_FROM; none when unset. */
  smtp: SmtpSettings | undefined;
  /**
   * Tests only (CHECK_RESPONSE_SCHEMAS): answer 500 when a response schema drops a field the route
   * returned (src/http/response-check.ts); off in production, which pays nothing for it.
   */
  checkResponseSchemas: boolean;
  /** HEAP_SEMI_SPACE_MB, checked here; applied before the config loads (cli/semi-space.ts). */
  semiSpaceMiB: number;
}

export interface SmtpSettings {
  /** smtp:// (STARTTLS when offered) or smtps:// (TLS from the start), credentials in the URL. */
  url: string;
  from: string;
}

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Parses the environment once at start; every failure names the variable to fix. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const semiSpace = semiSpaceMiB(env);
  const port = parsePort(env.PORT ?? '3000');
  const host = env.HOST || '127.0.0.1';
  const dataDir = dataDirOf(env);
  const databaseUrl = optionalUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']);
  const redisUrl = optionalUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']);
  const appUrl =
    optionalUrl('APP_URL', env.APP_URL, ['http:', 'https:'])?.replace(/\/+$/, '') ?? urlOfHost(host, port);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${logLevel}"`);
  }
  const simulator = env.SIMULATOR === 'true' || env.SIMULATOR === '1';
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    redisUrl,
    appUrl,
    secretKey: loadSecretKey(env.PARLEY_SECRET_KEY, dataDir, databaseUrl),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel,
    graphApiUrl: (
      optionalUrl('GRAPH_API_URL', env.GRAPH_API_URL, ['http:', 'https:']) ?? 'https://graph.facebook.com'
    ).replace(/\/+$/, ''),
    graphApiVersion: parseGraphVersion(env.GRAPH_API_VERSION ?? 'v21.0'),
    sendDeadlineMs: parseInteger('SEND_DEADLINE_MS', env.SEND_DEADLINE_MS ?? '3000', 100, 60_000),
    sendConfirmWindowMs: parseInteger(
      'SEND_CONFIRM_WINDOW_MS',
      env.SEND_CONFIRM_WINDOW_MS ?? '120000',
      1_000,
      86_400_000,
    ),
    jobRetryDelayMaxSeconds: env.JOB_RETRY_DELAY_MAX_SECONDS
      ? parseInteger('JOB_RETRY_DELAY_MAX_SECONDS', env.JOB_RETRY_DELAY_MAX_SECONDS, 1, 86_400)
      : undefined,
    apiKeyPollMs: parseInteger('API_KEY_POLL_MS', env.API_KEY_POLL_MS ?? '2000', 100, 600_000),
    simulator,
    simulatorToken:
      simulator || !databaseUrl ? loadSimulatorToken(env.SIMULATOR_TOKEN, dataDir, databaseUrl) : undefined,
    allowPrivateWebhooks: env.WEBHOOKS_ALLOW_PRIVATE === 'true' || env.WEBHOOKS_ALLOW_PRIVATE === '1',
    mediaStore: parseMediaStore(env.MEDIA_STORE, databaseUrl),
    s3: env.MEDIA_STORE === 's3' ? parseS3(env) : undefined,
    mediaMaxBytes: parseInteger('MEDIA_MAX_BYTES', env.MEDIA_MAX_BYTES ?? '100000000', 1_000, 2_000_000_000),
    smtp: parseSmtp(env.SMTP_URL, env.MAIL_FROM),
    checkResponseSchemas: env.CHECK_RESPONSE_SCHEMAS === 'true' || env.CHECK_RESPONSE_SCHEMAS === '1',
    semiSpaceMiB: semiSpace,
  };
}

/**
 * HEAP_SEMI_SPACE_MB: the size of each of V8's two young-generation semi-spaces `parley serve` runs
 * with (cli/semi-space.ts), 16 by default; 0 leaves V8's own sizing (by the machine's memory).
 */
export function semiSpaceMiB(env: NodeJS.ProcessEnv): number {
  return parseInteger('HEAP_SEMI_SPACE_MB', env.HEAP_SEMI_SPACE_MB ?? '16', 0, 1024);
}

/** DATA_DIR, absolute (./data by default). */
export function dataDirOf(env: NodeJS.ProcessEnv): string {
  return resolve(env.DATA_DIR || './data');
}

/** Files under DATA_DIR by default; PostgreSQL is for servers that share no disk, and needs DATABASE_URL. */
function parseMediaStore(raw: string | undefined, databaseUrl: string | undefined): Config['mediaStore'] {
  const store = raw || 'filesystem';
  if (store !== 'filesystem' && store !== 'postgres' && store !== 's3')
    throw new ConfigError(`MEDIA_STORE must be filesystem, postgres or s3; got "${store}"`);
  if (store === 'postgres' && !databaseUrl)
    throw new ConfigError(
      'MEDIA_STORE=postgres needs DATABASE_URL (the embedded database keeps media as files)',
    );
  return store;
}

function parseS3(env: NodeJS.ProcessEnv): S3Settings {
  const endpoint = optionalUrl('S3_ENDPOINT', env.S3_ENDPOINT, ['http:', 'https:']);
  const required = (name: string) => {
    const value = env[name];
    if (!value) throw new ConfigError(`${name} is required when MEDIA_STORE=s3`);
    return value;
  };
  if (!endpoint)
    throw new ConfigError(
      'S3_ENDPOINT is required when MEDIA_STORE=s3 (e.g. https://s3.eu-west-1.amazonaws.com)',
    );
  return {
    endpoint,
    bucket: required('S3_BUCKET'),
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: required('S3_ACCESS_KEY_ID'),
    secretAccessKey: required('S3_SECRET_ACCESS_KEY'),
  };
}

/** Never echoes SMTP_URL in an error: it carries the SMTP password. */
function parseSmtp(rawUrl: string | undefined, from: string | undefined): SmtpSettings | undefined {
  if (!rawUrl) {
    if (from) throw new ConfigError('MAIL_FROM is set but SMTP_URL is not; set both to send e-mail');
    return undefined;
  }
  const url = optionalUrl('SMTP_URL', rawUrl, ['smtp:', 'smtps:'])!;
  if (!new URL(url).hostname) throw new ConfigError('SMTP_URL names no host, e.g. smtp://user:pass@host:587');
  if (!from)
    throw new ConfigError('MAIL_FROM is required when SMTP_URL is set, e.g. "Parley <parley@example.com>"');
  if (!/^[^<>@\s]+@[^<>@\s]+$|<[^<>@\s]+@[^<>@\s]+>$/.test(from.trim()) || /[\r\n]/.test(from))
    throw new ConfigError(
      `MAIL_FROM must be an e-mail address, optionally with a name: "Parley <parley@example.com>"; got "${from}"`,
    );
  return { url, from: from.trim() };
}

function parseGraphVersion(raw: string): string {
  const m = /^v(\d+)\.(\d+)$/.exec(raw);
  if (!m || Number(m[1]) < 21)
    throw new ConfigError(`GRAPH_API_VERSION must look like v21.0 (v21.0 or later); got "${raw}"`);
  return raw;
}

function parseInteger(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}"`);
  }
  return n;
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535; got "${raw}"`);
  }
  return port;
}

function optionalUrl(name: string, raw: string | undefined, protocols: string[]): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

/**
 * Where a browser on this machine reaches a server listening on HOST: an all-addresses host is
 * reached on loopback, and an IPv6 address goes in brackets (`http://:::3402` is no URL, and every
 * browser POST would then fail the Origin check).
 */
function urlOfHost(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const url = `http://${isIPv6(reachable) ? `[${reachable}]` : reachable}:${port}`;
  // As the browser will write it in its Origin header (lower case, shortest IPv6 form).
  if (URL.canParse(url)) return new URL(url).origin;
  throw new ConfigError(`HOST "${host}" makes no URL for the web app (${url}); set APP_URL to it`);
}

function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (!raw || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  // How many proxies stand in front: the client is the address that many hops back.
  if (/^\d+$/.test(raw)) return parseInteger('TRUST_PROXY', raw, 0, 32);
  // Anything else is handed to Fastify as an address list or CIDR ("127.0.0.1,10.0.0.0/8").
  return raw;
}

/**
 * The key that encrypts secrets at rest. With a server database it must be given, since several
 * instances have to share it; in embedded mode it is generated once and kept beside the data.
 */
function loadSecretKey(raw: string | undefined, dataDir: string, databaseUrl: string | undefined): Buffer {
  if (raw) return decodeKey(raw);
  if (databaseUrl) {
    throw new ConfigError(
      'PARLEY_SECRET_KEY is required when DATABASE_URL is set (32 bytes as 64 hex characters or base64); ' +
        "generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"",
    );
  }
  const file = generatedOnce(dataDir, 'secret.key');
  return decodeKey(readFileSync(file, 'utf8').trim(), file);
}

/**
 * The simulator's operator token. With a server database it must be given (every instance, and
 * `parley demo`, has to know it); in embedded mode it is generated once beside the data, as the
 * secret key is. `parley simulator` on its own takes it the same way.
 */
export function loadSimulatorToken(
  raw: string | undefined,
  dataDir: string,
  databaseUrl: string | undefined,
): string {
  if (raw) {
    if (!/^[\x21-\x7e]{16,}$/.test(raw)) {
      throw new ConfigError('SIMULATOR_TOKEN must be at least 16 printable characters, without spaces');
    }
    return raw;
  }
  if (databaseUrl) {
    throw new ConfigError(
      "SIMULATOR_TOKEN is required when SIMULATOR=true and DATABASE_URL is set (it guards the simulator's " +
        'control routes); generate one with: ' +
        "node -e \"console.log(require('crypto').randomBytes(32).toString('hex'))\"",
    );
  }
  return readFileSync(generatedOnce(dataDir, 'simulator.token'), 'utf8').trim();
}

/** DATA_DIR/name, holding 32 random bytes in hex written on first use, readable by the owner only. */
function generatedOnce(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return file;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return file;
}

export function decodeKey(raw: string, source = 'PARLEY_SECRET_KEY'): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) {
    throw new ConfigError(`${source} must hold 32 bytes, as 64 hex characters or base64`);
  }
  return key;
}
