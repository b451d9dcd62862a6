import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure, api, collectionOf, invalidate, onSessionEnded, queryClient, shouldRetry } from './api';
import { i18n } from './i18n/init';

const PATHS = ['/contacts', '/contacts?q=ann', '/contacts/c_1', '/contactsx', '/leads', '/team'];

function cacheAll() {
  queryClient.clear();
  for (const p of PATHS) queryClient.setQueryData([p], { p });
}

const stale = () => PATHS.filter((p) => queryClient.getQueryState([p])?.isInvalidated);

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('invalidate', () => {
  it('marks the prefix, its query strings and its children stale, nothing beside them', async () => {
    cacheAll();
    await invalidate('/contacts');
    expect(stale()).toEqual(['/contacts', '/contacts?q=ann', '/contacts/c_1']);
  });

  it('marks one item without its list', async () => {
    cacheAll();
    await invalidate('/contacts/c_1');
    expect(stale()).toEqual(['/contacts/c_1']);
  });
});

describe('a write through api()', () => {
  const answer = (status: number, body: unknown) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status })),
    );

  it('marks the collection it wrote to stale, whatever page made it', async () => {
    cacheAll();
    answer(200, { result: true });
    await api('PATCH', '/contacts/c_1', { name: 'Ann' });
    expect(stale()).toEqual(['/contacts', '/contacts?q=ann', '/contacts/c_1']);
  });

  it('leaves the cache alone when it is refused, and after a read', async () => {
    cacheAll();
    answer(422, { result: false, error: { code: 'validation_failed', message: 'name: Fill this in.' } });
    await expect(api('PATCH', '/contacts/c_1', {})).rejects.toThrow('name: Fill this in.');
    answer(200, { result: true });
    await api('GET', '/contacts/c_1');
    expect(stale()).toEqual([]);
  });
});

describe('a 401', () => {
  it('ends the session, except where signing in is what failed', async () => {
    const ended = vi.fn();
    onSessionEnded(ended);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'Sign in' } }), {
            status: 401,
          }),
      ),
    );
    await expect(api('POST', '/login', {})).rejects.toThrow('Sign in');
    expect(ended).not.toHaveBeenCalled();
    await expect(api('GET', '/workspace')).rejects.toThrow('Sign in');
    expect(ended).toHaveBeenCalledOnce();
  });
});

describe('the app’s own words for a failure', () => {
  it('are English as before, in the person’s language otherwise; the server’s message stays as sent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api('GET', '/contacts')).rejects.toThrow(
      'The server cannot be reached; check your connection',
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    await expect(api('GET', '/contacts')).rejects.toThrow('The server answered 502');
    await i18n.changeLanguage('es');
    await expect(api('GET', '/contacts')).rejects.toThrow('El servidor respondió con el código 502');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api('GET', '/contacts')).rejects.toThrow(
      'No se puede conectar con el servidor; revisa tu conexión',
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'not_found', message: 'Contact not found' } }), {
            status: 404,
          }),
      ),
    );
    await expect(api('GET', '/contacts/c_1')).rejects.toThrow('Contact not found');
    await i18n.changeLanguage('en');
  });
});

describe('collectionOf', () => {
  it('is the first segment of the path', () => {
    expect(collectionOf('/contacts/c_1/notes?x=1')).toBe('/contacts');
    expect(collectionOf('/workspace')).toBe('/workspace');
    expect(collectionOf('/templates?submitted=a')).toBe('/templates');
  });
});

describe('shouldRetry', () => {
  const failure = (status: number) => new ApiFailure(status, { code: 'x', message: 'x' });
  it('gives up at once on a refusal and tries a server or network failure once more', () => {
    expect(shouldRetry(0, failure(404))).toBe(false);
    expect(shouldRetry(0, failure(401))).toBe(false);
    expect(shouldRetry(0, failure(503))).toBe(true);
    expect(shouldRetry(0, failure(0))).toBe(true);
    expect(shouldRetry(1, failure(503))).toBe(false);
  });
});
