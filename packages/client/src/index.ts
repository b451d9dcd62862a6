import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from './schema.js';

export type { components, paths, webhooks };

/** A Parley REST v1 client: every path, body and answer typed from the API's OpenAPI document. */
export type ParleyClient = Client<paths>;

export interface ParleyClientOptions extends Omit<ClientOptions, 'baseUrl' | 'headers'> {
  /** Where the API lives, with /api/v1: `https://parley.example.com/api/v1`. */
  baseUrl: string;
  /** An API key of the workspace (Settings › Developer), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Headers for every request besides the key's. */
  headers?: Record<string, string>;
}

/**
 * `client.GET('/conversations/{id}', { params: { path: { id } } })` answers `{ data, error, response }`:
 * `data` the 2xx answer, or `error` the error envelope (`error.error.code`, `.message`, `.request_id`).
 */
export function createParleyClient({
  baseUrl,
  apiKey,
  headers,
  ...options
}: ParleyClientOptions): ParleyClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, authorization: `Bearer ${apiKey}` },
  });
}
