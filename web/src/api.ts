import { QueryClient, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { formatDateTime, timeAgo as relativeTime } from './i18n/format';
import { i18n } from './i18n/init';

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

/** How long a GET's answer is shown without asking again: a page visited twice within it costs one request. */
export const STALE_MS = 30_000;

/** A refusal (4xx) will not change by asking again; a network failure or a 5xx is tried once more. */
export function shouldRetry(failures: number, error: Error): boolean {
  if (error instanceof ApiFailure && error.status >= 400 && error.status < 500) return false;
  return failures < 1;
}

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: STALE_MS, retry: shouldRetry } },
});

/**
 * Marks every cached GET under `prefix` stale (`/contacts` covers `/contacts?q=a` and `/contacts/1`, not
 * `/contactsx`); those on screen fetch again at once, the rest when next shown.
 */
export function invalidate(prefix: string): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (q) => typeof q.queryKey[0] === 'string' && isUnder(q.queryKey[0], prefix),
  });
}

function isUnder(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charAt(prefix.length);
  return next === '' || next === '/' || next === '?';
}

/** The collection a path belongs to: `/contacts/1/notes?x` → `/contacts`. */
export function collectionOf(path: string): string {
  return `/${path.split(/[/?]/)[1] ?? ''}`;
}

// The app's own words when the server's are missing, in the person's language; the server's messages stay as sent.
function unreachable(): ApiFailure {
  return new ApiFailure(0, { code: 'network', message: i18n.t('api.unreachable', { ns: 'ui' }) });
}

function answered(status: number): ApiErrorBody {
  return { code: 'http_error', message: i18n.t('api.answered', { ns: 'ui', status: String(status) }) };
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
    throw unreachable();
  }
  const json = (await res.json().catch(() => null)) as { error?: ApiErrorBody } | null;
  if (!res.ok) {
    const error = json?.error ?? answered(res.status);
    if (res.status === 401 && path !== '/login' && path !== '/invitations/accept') onSignedOut();
    throw new ApiFailure(res.status, error);
  }
  // A change to /contacts/1 leaves every cached /contacts… answer out of date, on whichever page made it.
  if (method !== 'GET') void invalidate(collectionOf(path));
  return json as T;
}

/**
 * Sends a file as the body of a POST to the web app's API, as it is (no JSON), or a multipart form
 * (the browser writes its content type); throws ApiFailure as api() does.
 */
export async function upload<T>(path: string, file: Blob | FormData, contentType?: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/app${path}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        ...(contentType ? { 'content-type': contentType } : {}),
        'x-parley-csrf': csrfToken || '1',
      },
      credentials: 'same-origin',
      body: file,
    });
  } catch {
    throw unreachable();
  }
  const json = (await res.json().catch(() => null)) as { error?: ApiErrorBody } | null;
  if (!res.ok) throw new ApiFailure(res.status, json?.error ?? answered(res.status));
  void invalidate(collectionOf(path));
  return json as T;
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export interface LoadOptions<T> {
  /** Fetch again every so many ms while the page is open; a function decides from the data (false: stop). */
  refetchInterval?: number | false | ((data: T | undefined) => number | false);
  /** How long an answer counts as fresh (no refetch on mount or focus); the default is STALE_MS. */
  staleTime?: number;
}

/**
 * GETs `path` through the query cache: the path is the key, so every page asking for it shares one
 * answer, fresh for `staleTime`; `reload` fetches again (joining a fetch already under way).
 */
export function useApi<T>(path: string | null, options: LoadOptions<T> = {}): Loaded<T> {
  const { refetchInterval, staleTime } = options;
  const query = useQuery<T, Error, T, [string | null]>({
    queryKey: [path],
    queryFn: () => api<T>('GET', path!),
    enabled: path !== null,
    ...(staleTime === undefined ? {} : { staleTime }),
    ...(refetchInterval === undefined
      ? {}
      : {
          refetchInterval:
            typeof refetchInterval === 'function' ? (q) => refetchInterval(q.state.data) : refetchInterval,
        }),
  });
  const { refetch } = query;
  const reload = useCallback(() => void refetch({ cancelRefetch: false }), [refetch]);
  return {
    data: query.data ?? null,
    error: query.error?.message ?? null,
    loading: query.isPending || query.isFetching,
    reload,
  };
}

/** A date and time in the person's language and the workspace's time zone (web/src/i18n/format.ts). */
export function formatDate(value: string | null | undefined): string {
  return formatDateTime(value);
}

/** "5 min ago", in the person's language (web/src/i18n/format.ts). */
export function timeAgo(value: string | null | undefined): string {
  return relativeTime(value);
}
