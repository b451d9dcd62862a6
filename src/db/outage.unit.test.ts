import { describe, expect, it } from 'vitest';
import { DatabaseUnreachableError, isDatabaseUnreachable } from './outage.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable', () => {
  it.each([
    ['refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['reset', withCode('ECONNRESET')],
    ['unresolvable host', withCode('ENOTFOUND')],
    ['admin shutdown (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['connection failure (08006)', withCode('08006')],
    ['lost connection', new Error('Connection terminated unexpectedly')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['pool wait timeout', new Error('timeout exceeded when trying to connect')],
    ['client read timeout', new Error('Query read timeout')],
    ['every address refused', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
    ['ours', new DatabaseUnreachableError()],
    [
      'ours, as the job queue copies it',
      { ...new DatabaseUnreachableError(), message: 'the database is unreachable (Queue: q)' },
    ],
  ])('%s: unreachable', (_, err) => {
    expect(isDatabaseUnreachable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['too many clients (the server answered)', withCode('53300')],
    ['a wrong password (the server answered)', withCode('28P01')],
    // An outbound HTTP call that failed carries the socket code in its cause, not itself.
    ['a failed fetch', new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') })],
    ['nothing', undefined],
  ])('%s: not unreachable', (_, err) => {
    expect(isDatabaseUnreachable(err)).toBe(false);
  });
});
