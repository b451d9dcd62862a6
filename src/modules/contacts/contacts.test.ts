import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('POST /contacts', () => {
  it('rejects wrong types and unknown fields with field details', async () => {
    const { key } = await t.workspace();
    const res = await t.api('POST', '/contacts', key, { phone: '+14155552671', tags: 'x', extra: 1 });
    expect(res.statusCode).toBe(422);
    const fields = res.json().error.details.map((d: { field: string }) => d.field);
    expect(fields).toContain('tags');
    expect(fields).toContain('extra');
  });
});
