import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './app.js';

let address = 0;
/** A client address no other submission in this process has used, so the per-address limit stays out of the way. */
export function freshAddress(): string {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
}

/** POST /api/forms/submit as JSON (an object) or as raw text with the given content type. */
export function submit(
  t: TestApp,
  body: unknown,
  options: { headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/forms/submit',
    remoteAddress: options.remoteAddress ?? freshAddress(),
    headers: options.headers ?? {},
    ...(typeof body === 'string' ? { payload: body } : body === undefined ? {} : { payload: body as object }),
  });
}

/** Asserts the lead-intake envelope on a failure: JSON, success false, an error string. */
export function expectIntakeError(res: LightMyRequestResponse, status: number, message?: RegExp): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(
    status === 422 && body.details ? ['details', 'error', 'success'] : ['error', 'success'],
  );
  expect(body.success).toBe(false);
  expect(body.error).toEqual(expect.any(String));
  if (message) expect(body.error).toMatch(message);
}

export async function leadsOf(t: TestApp, workspaceId: string) {
  const { rows } = await t.ctx.db.query<Record<string, unknown>>(
    'SELECT * FROM leads WHERE workspace_id = $1 ORDER BY created_at, id',
    [workspaceId],
  );
  return rows;
}
