import { randomBytes, type ScryptOptions, scrypt } from 'node:crypto';
import { safeEqual } from '../../lib/constant-time.js';

// OWASP's scrypt floor (N=2^17, r=8, p=1) takes ~128 MiB; 2^15 keeps a sign-in near 50 ms and 32 MiB.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { ...params, maxmem: 64 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

/**
 * `scrypt$N$r$p$salt$hash` (base64): the parameters travel with the hash, so they can be raised later
 * (and the tests' users, made by the thousand, take cheaper ones: test/support/app-session.ts).
 */
export async function hashPassword(
  password: string,
  params: { N: number; r: number; p: number } = PARAMS,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return safeEqual(key, expected);
}

/** Compared against when no user has the e-mail address, so the answer takes as long either way. */
export const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$AAAAAAAAAAAAAAAAAAAAAA==$${'A'.repeat(43)}=`;
