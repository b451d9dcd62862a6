import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.js';

const KEY = 'a'.repeat(64);
const SIM = 'simulator-token-0123456789';
const load = (env: Record<string, string>) =>
  loadConfig({ PARLEY_SECRET_KEY: KEY, SIMULATOR_TOKEN: SIM, ...env });

describe('APP_URL derived from HOST and PORT', () => {
  it.each([
    ['127.0.0.1', 'http://127.0.0.1:3402'],
    ['0.0.0.0', 'http://127.0.0.1:3402'],
    ['::', 'http://[::1]:3402'],
    ['::1', 'http://[::1]:3402'],
    ['2001:DB8:0::7', 'http://[2001:db8::7]:3402'],
    ['localhost', 'http://localhost:3402'],
  ])('HOST=%s gives %s, a URL a browser sends as its Origin', (host, appUrl) => {
    const config = load({ HOST: host, PORT: '3402' });
    expect(config.appUrl).toBe(appUrl);
    expect(new URL(config.appUrl).origin).toBe(appUrl);
  });

  it('names HOST and APP_URL when HOST makes no URL', () => {
    expect(() => load({ HOST: 'fe80::1%eth0', PORT: '3402' })).toThrow(ConfigError);
    expect(() => load({ HOST: 'fe80::1%eth0', PORT: '3402' })).toThrow(/HOST.*APP_URL/);
  });

  it('takes APP_URL as given, without a trailing slash', () => {
    expect(load({ HOST: '::', APP_URL: 'https://parley.example.com/' }).appUrl).toBe(
      'https://parley.example.com',
    );
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8,127.0.0.1', '10.0.0.0/8,127.0.0.1'],
  ])('%s is %s', (raw, trustProxy) => {
    expect(load(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy).toBe(trustProxy);
  });

  it('names the variable for a hop count out of range', () => {
    expect(() => load({ TRUST_PROXY: '99' })).toThrow(/TRUST_PROXY/);
  });
});

describe('SIMULATOR_TOKEN', () => {
  const PG = 'postgres://db.example/parley';

  it('is generated once into DATA_DIR in embedded mode, owner-only, and the same after a restart', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'penv-'));
    try {
      const first = loadConfig({ PARLEY_SECRET_KEY: KEY, DATA_DIR: dataDir }).simulatorToken;
      const file = join(dataDir, 'simulator.token');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(readFileSync(file, 'utf8')).toBe(first);
      expect(loadConfig({ PARLEY_SECRET_KEY: KEY, DATA_DIR: dataDir }).simulatorToken).toBe(first);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is required with SIMULATOR=true on PostgreSQL, and named when missing or too short', () => {
    expect(() => loadConfig({ PARLEY_SECRET_KEY: KEY, DATABASE_URL: PG, SIMULATOR: 'true' })).toThrow(
      /SIMULATOR_TOKEN is required when SIMULATOR=true/,
    );
    expect(() => load({ DATABASE_URL: PG, SIMULATOR: 'true', SIMULATOR_TOKEN: 'short' })).toThrow(
      /SIMULATOR_TOKEN must be at least 16/,
    );
    expect(load({ DATABASE_URL: PG, SIMULATOR: 'true' }).simulatorToken).toBe(SIM);
  });

  it('is none on PostgreSQL without the simulator', () => {
    expect(loadConfig({ PARLEY_SECRET_KEY: KEY, DATABASE_URL: PG }).simulatorToken).toBeUndefined();
  });
});

describe('API_KEY_POLL_MS', () => {
  it('polls every 2 s unless told, and names the variable when out of range', () => {
    expect(load({}).apiKeyPollMs).toBe(2_000);
    expect(load({ API_KEY_POLL_MS: '600000' }).apiKeyPollMs).toBe(600_000);
    expect(() => load({ API_KEY_POLL_MS: '10' })).toThrow(/API_KEY_POLL_MS must be an integer from 100/);
  });
});

describe('HEAP_SEMI_SPACE_MB', () => {
  it('is 16 MiB unless told, 0 for the sizing by machine, and named when not a whole number of MiB in range', () => {
    expect(load({}).semiSpaceMiB).toBe(16);
    expect(load({ HEAP_SEMI_SPACE_MB: '0' }).semiSpaceMiB).toBe(0);
    expect(load({ HEAP_SEMI_SPACE_MB: '64' }).semiSpaceMiB).toBe(64);
    for (const bad of ['16MB', '-1', '2.5', '4096']) {
      expect(() => load({ HEAP_SEMI_SPACE_MB: bad })).toThrow(
        new ConfigError(`HEAP_SEMI_SPACE_MB must be an integer from 0 to 1024; got "${bad}"`),
      );
    }
  });
});

describe('JOB_RETRY_DELAY_MAX_SECONDS', () => {
  it('leaves retry backoff uncapped unless told, and names the variable when out of range', () => {
    expect(load({}).jobRetryDelayMaxSeconds).toBeUndefined();
    expect(load({ JOB_RETRY_DELAY_MAX_SECONDS: '1' }).jobRetryDelayMaxSeconds).toBe(1);
    expect(() => load({ JOB_RETRY_DELAY_MAX_SECONDS: '0' })).toThrow(
      /JOB_RETRY_DELAY_MAX_SECONDS must be an integer from 1/,
    );
  });
});

describe('MEDIA_STORE and MEDIA_MAX_BYTES', () => {
  it('keeps media as files of 100 MB at most unless told, and names the variable when wrong', () => {
    expect(load({})).toMatchObject({ mediaStore: 'filesystem', mediaMaxBytes: 100_000_000 });
    expect(load({ DATABASE_URL: 'postgres://db.example/parley', MEDIA_STORE: 'postgres' }).mediaStore).toBe(
      'postgres',
    );
    expect(() => load({ MEDIA_STORE: 'gcs' })).toThrow(/MEDIA_STORE must be filesystem, postgres or s3/);
    expect(() => load({ MEDIA_STORE: 'postgres' })).toThrow(/MEDIA_STORE=postgres needs DATABASE_URL/);
    expect(load({ MEDIA_MAX_BYTES: '5000000' }).mediaMaxBytes).toBe(5_000_000);
    expect(() => load({ MEDIA_MAX_BYTES: 'lots' })).toThrow(/MEDIA_MAX_BYTES must be an integer/);
  });
});

describe('MEDIA_STORE=s3', () => {
  const S3 = {
    MEDIA_STORE: 's3',
    S3_ENDPOINT: 'https://s3.eu-west-1.amazonaws.com',
    S3_BUCKET: 'parley-media',
    S3_ACCESS_KEY_ID: 'AKIA0000',
    S3_SECRET_ACCESS_KEY: 'secret',
  };
  it('takes the bucket from S3_* (region us-east-1 unless told), naming what is missing', () => {
    expect(load(S3)).toMatchObject({
      mediaStore: 's3',
      s3: { endpoint: S3.S3_ENDPOINT, bucket: 'parley-media', region: 'us-east-1', accessKeyId: 'AKIA0000' },
    });
    expect(load({ ...S3, S3_REGION: 'eu-west-1' }).s3?.region).toBe('eu-west-1');
    expect(() => load({ ...S3, S3_BUCKET: '' })).toThrow(/S3_BUCKET is required when MEDIA_STORE=s3/);
    expect(() => load({ ...S3, S3_ENDPOINT: '' })).toThrow(/S3_ENDPOINT is required/);
    expect(() => load({ ...S3, S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT must start with http/);
    expect(load({}).s3).toBeUndefined();
  });
});

describe('SMTP_URL and MAIL_FROM', () => {
  const FROM = 'Parley <parley@example.com>';

  it('is off when neither is set', () => {
    expect(load({}).smtp).toBeUndefined();
  });

  it.each(['smtp://user:pass@mail.example.com:587', 'smtps://mail.example.com'])(
    'takes %s with MAIL_FROM',
    (url) => {
      expect(load({ SMTP_URL: url, MAIL_FROM: FROM }).smtp).toEqual({ url, from: FROM });
    },
  );

  it.each([
    [
      { SMTP_URL: 'http://mail.example.com', MAIL_FROM: FROM },
      /SMTP_URL must start with smtp:\/\/ or smtps:\/\//,
    ],
    [{ SMTP_URL: 'smtp://user:s3cret@', MAIL_FROM: FROM }, /SMTP_URL/],
    [{ SMTP_URL: 'smtp://mail.example.com' }, /MAIL_FROM is required when SMTP_URL is set/],
    [{ MAIL_FROM: FROM }, /MAIL_FROM is set but SMTP_URL is not/],
    [{ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'nobody' }, /MAIL_FROM must be an e-mail address/],
    [{ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'a@b.c\r\nBcc: x@y.z' }, /MAIL_FROM must be/],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => load(env)).toThrow(message);
  });

  it('never repeats the password of SMTP_URL in its errors', () => {
    for (const url of ['smtp://user:s3cret@', 'smtp://user:s3cret@mail.example.com']) {
      try {
        load({ SMTP_URL: url });
      } catch (err) {
        expect((err as Error).message).not.toContain('s3cret');
      }
    }
  });
});
