import { Agent, fetch } from 'undici';
import { readCapped } from '../../../lib/read-capped.js';
import { assertAllowedHost, BlockedAddressError, guardedAgent } from '../../webhooks/safe-fetch.js';
import { interpolate } from '../interpolate.js';
import { PermanentStepError, type StepInput, type StepOutcome, TransientStepError } from './step.js';

const agents = { strict: guardedAgent(false), open: new Agent() };
const MAX_BODY_KEPT = 2048;
// A JSON answer up to this size is kept whole (parsed) for later steps to read; past it, like any
// other answer, only its first MAX_BODY_KEPT characters are kept as text. The rest is never read.
const MAX_JSON = 64 * 1024;

/**
 * Calls a URL the workflow names, guarded like outbound webhooks (no private or loopback targets
 * unless the operator allows them). The request carries `Idempotency-Key: <run>/<step>`: a step
 * tried again after a crash sends the same key, so the receiver can tell a repeat from a new call.
 * 5xx, 408, 429 and network errors are retried; other 4xx fail the run. The outcome keeps the
 * status and the answer (parsed when it is JSON), which later steps read as `steps.<id>.status` and
 * `steps.<id>.body.<path>`.
 */
export async function httpRequest(
  input: StepInput,
  step: {
    method?: string;
    url: string;
    headers?: Record<string, string>;
    body?: string;
    timeout_ms?: number;
  },
): Promise<StepOutcome> {
  const allowPrivate = input.ctx.config.allowPrivateWebhooks;
  const url = interpolate(step.url, input.scope);
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('not http(s)');
    assertAllowedHost(url, allowPrivate);
  } catch (err) {
    throw new PermanentStepError(
      err instanceof BlockedAddressError ? err.message : `"${url}" is not an http(s) URL`,
    );
  }
  const method = step.method ?? 'POST';
  const headers: Record<string, string> = {
    'user-agent': 'Parley-Automation/1',
    'idempotency-key': input.key,
  };
  for (const [k, v] of Object.entries(step.headers ?? {}))
    headers[k.toLowerCase()] = interpolate(v, input.scope);
  const body =
    method === 'GET' || method === 'DELETE' ? undefined : interpolate(step.body ?? '', input.scope);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(url, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(step.timeout_ms ?? 5000),
      dispatcher: allowPrivate ? agents.open : agents.strict,
    });
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof BlockedAddressError) throw new PermanentStepError(cause.message);
    throw new TransientStepError(`request failed: ${(err as Error).message}`);
  }
  const read = await readCapped(response.body, MAX_JSON).catch(() => undefined);
  const whole = read?.bytes.toString('utf8') ?? '';
  const text = whole.slice(0, MAX_BODY_KEPT);
  const json = read && !read.truncated ? parsedJson(whole) : undefined;
  const outcome = { status_code: response.status, body: json === undefined ? text : json };
  if (response.ok || (response.status >= 300 && response.status < 400)) return { status: 'done', outcome };
  if (response.status >= 500 || response.status === 408 || response.status === 429) {
    throw new TransientStepError(`the server answered ${response.status}`);
  }
  throw new PermanentStepError(`the server answered ${response.status}: ${text.slice(0, 200)}`);
}

/** A JSON object or array answered, or undefined for anything else (text, a bare number, bad JSON). */
function parsedJson(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
