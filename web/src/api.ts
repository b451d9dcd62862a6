import { useCallback, useEffect, useState } from 'react';

export interface ApiErrorBody {
  code: string;
  message: string;
  details?: { field: string; message: string }[];
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => {};

/** Set from the session: sent in x-parley-csrf on every state-changing request. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export function onSessionEnded(fn: () => void): void {
  onSignedOut = fn;
}

/** A call to the web app's API (/api/app); throws ApiFailure with the server's message. */
export async function api<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-parley-csrf'] = csrfToken || '1';
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`/api/app${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure(0, {
      code: 'network',
      message: 'The server cannot be reached; check your connection',
    });
  }
  const json = (await res.json().catch(() => null)) as { error?: ApiErrorBody } | null;
  if (!res.ok) {
    const error = json?.error ?? { code: 'http_error', message: `The server answered ${res.status}` };
    if (res.status === 401 && path !== '/login' && path !== '/invitations/accept') onSignedOut();
    throw new ApiFailure(res.status, error);
  }
  return json as T;
}

/** Sends a file as the body of a POST to the web app's API, as it is (no JSON); throws ApiFailure as api() does. */
export async function upload<T>(path: string, file: Blob, contentType: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/app${path}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': contentType, 'x-parley-csrf': csrfToken || '1' },
      credentials: 'same-origin',
      body: file,
    });
  } catch {
    throw new ApiFailure(0, {
      code: 'network',
      message: 'The server cannot be reached; check your connection',
    });
  }
  const json = (await res.json().catch(() => null)) as { error?: ApiErrorBody } | null;
  if (!res.ok)
    throw new ApiFailure(
      res.status,
      json?.error ?? { code: 'http_error', message: `The server answered ${res.status}` },
    );
  return json as T;
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/** GETs `path` now and whenever it changes; `reload` fetches again. */
export function useApi<T>(path: string | null): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick is the reload trigger
  useEffect(() => {
    if (path === null) return;
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    api<T>('GET', path).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (err: Error) => live && setState({ data: null, error: err.message, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function timeAgo(value: string | null | undefined): string {
  if (!value) return 'never';
  const s = Math.round((Date.now() - new Date(value).getTime()) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}
