import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/support/app.js';
import { workspaceWithOwner } from '../../../../test/support/app-session.js';
import { listen } from '../../../../test/support/messaging.js';
import { until } from '../../../../test/support/until.js';
import { forgetAbandonedUploads } from './abandoned-uploads.js';
import { CSV_LIMITS } from './read-csv.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ queue: true });
  await t.ctx.db.query(
    `INSERT INTO plans (name, contacts_limit, monthly_leads_limit, messages_per_month_limit) VALUES ('tiny', 5, 10, 10)`,
  );
});
afterAll(async () => {
  await t?.close();
});

const csvHeaders = { 'content-type': 'text/csv' };

const upload = (
  key: string,
  csv: string | Buffer | Readable,
  query = '',
  headers: Record<string, string> = csvHeaders,
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/contacts/import${query}`,
    headers: { authorization: `Bearer ${key}`, ...headers },
    payload: csv,
  });

async function finished(key: string, id: string) {
  return until(async () => {
    const res = (await t.api('GET', `/contacts/imports/${id}?limit=1000`, key)).json();
    return ['completed', 'stopped'].includes(res.import?.status) && res;
  });
}

const contacts = async (key: string) => (await t.api('GET', '/contacts?limit=200', key)).json().contacts;

async function importsLeft(workspaceId: string) {
  const counts = await Promise.all(
    ['contact_imports', 'contact_import_rows', 'contact_import_refusals'].map(
      async (table) =>
        (
          await t.ctx.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${table} WHERE workspace_id = $1`,
            [workspaceId],
          )
        ).rows[0]!.n,
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}

describe('POST /contacts/import', () => {
  it('imports rows as upserts, normalises phones with the default country code and reports each refused row', async () => {
    const ws = await t.workspace({ defaultCountryCode: '91' });
    await t.api('POST', '/contacts', ws.key, { phone: '+14155550100', name: 'Kept', tags: ['old'] });
    const csv = [
      'phone,name,email,tags,trait:city,notes',
      '98765 43210,Asha,asha@example.com,"vip, new",Pune,x',
      '+1 (415) 555-0100,,,"b2b;new",Austin,y',
      '12,Bad Phone,,,,z',
      '+14155550101,Bad Mail,not-an-email,,,',
      '+14155550102,Short row',
      ',No Phone,,,,',
      '+91 98765 43210,Asha Again,,returning,,',
    ].join('\r\n');
    const res = await upload(ws.key, csv);
    expect(res.statusCode).toBe(202);
    expect(res.json().import).toMatchObject({ total_rows: 7, status: 'queued' });
    const done = await finished(ws.key, res.json().import.id);
    expect(done.import).toMatchObject({
      status: 'completed',
      total_rows: 7,
      processed_rows: 7,
      created: 1,
      updated: 2,
      refused: 4,
      stopped_reason: null,
    });
    expect(done.refusals).toEqual([
      { row: 4, reason: expect.stringMatching(/^12 is not a valid number for country code 91/) },
      { row: 5, reason: '"not-an-email" is not an e-mail address' },
      { row: 6, reason: 'it has 2 cells where the header has 6; check for a stray comma or quote' },
      { row: 7, reason: 'it has no phone number' },
    ]);
    const list = await contacts(ws.key);
    expect(list.find((c: { phone: string }) => c.phone === '919876543210')).toMatchObject({
      name: 'Asha Again',
      email: 'asha@example.com',
      tags: ['vip', 'new', 'returning'],
      traits: { city: 'Pune' },
    });
    expect(list.find((c: { phone: string }) => c.phone === '14155550100')).toMatchObject({
      name: 'Kept',
      tags: ['old', 'b2b', 'new'],
      traits: { city: 'Austin' },
    });
    expect(list).toHaveLength(2);
  });

  it('takes a column mapping and a multipart upload, and reads a UTF-8 BOM', async () => {
    const ws = await t.workspace({ defaultCountryCode: '1' });
    const form = new FormData();
    const csv = '\uFEFFMobile,Customer,Plan,Ignored\n4155550111,Ann,gold,x\n';
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'crm.csv');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts/import?phone_column=Mobile&name_column=Customer&trait_columns=Plan',
      headers: { authorization: `Bearer ${ws.key}` },
      payload: form,
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().import.file_name).toBe('crm.csv');
    await finished(ws.key, res.json().import.id);
    expect(await contacts(ws.key)).toEqual([
      expect.objectContaining({ phone: '14155550111', name: 'Ann', traits: { Plan: 'gold' } }),
    ]);
  });

  it('refuses a multipart form without a file, a broken one, and one whose file is too large, never with a 500', async () => {
    const ws = await t.workspace({ defaultCountryCode: '1' });
    const noFile = new FormData();
    noFile.append('note', 'no file here');
    const empty = await upload(ws.key, '', '', {});
    expect(empty.statusCode).toBe(415);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts/import',
      headers: { authorization: `Bearer ${ws.key}` },
      payload: noFile,
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.details).toEqual([{ field: 'file', message: 'Add the CSV file here.' }]);
    const broken = await upload(
      ws.key,
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nphone\n+1415555',
      '',
      { 'content-type': 'multipart/form-data; boundary=x' },
    );
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('bad_request');
    const saved = { ...CSV_LIMITS };
    try {
      CSV_LIMITS.bytes = 4096;
      const big = new FormData();
      big.append('file', new Blob([`phone\n${'+14155550100\n'.repeat(1000)}`]), 'big.csv');
      const tooLarge = await t.app.inject({
        method: 'POST',
        url: '/api/v1/contacts/import',
        headers: { authorization: `Bearer ${ws.key}` },
        payload: big,
      });
      expect(tooLarge.statusCode).toBe(413);
    } finally {
      Object.assign(CSV_LIMITS, saved);
    }
    expect(await importsLeft(ws.id)).toBe(0);
  });

  it("stops at the plan's contact limit and says at which row", async () => {
    const ws = await t.workspace({ defaultCountryCode: '1', plan: 'tiny' });
    await t.api('POST', '/contacts', ws.key, { phone: '+14155550200' });
    const rows = Array.from({ length: 8 }, (_, i) => `+1415555030${i}`);
    const res = await upload(ws.key, ['phone', '+14155550200', ...rows].join('\n'));
    const done = await finished(ws.key, res.json().import.id);
    expect(done.import).toMatchObject({ status: 'stopped', created: 4, updated: 1, processed_rows: 5 });
    expect(done.import.stopped_reason).toBe(
      "The plan's limit of 5 contacts was reached at row 7: that row and the ones after it were not imported. Upgrade the plan and import them again.",
    );
    expect(await contacts(ws.key)).toHaveLength(5);
    expect(await importsLeft(ws.id)).toBe(1);
  });

  const HOSTILE: [string, string | Buffer, number, RegExp][] = [
    ['Latin-1 bytes', Buffer.from('phone,name\n+14155550100,Jos\xe9\n', 'latin1'), 422, /not UTF-8/],
    ['UTF-16 with its BOM', Buffer.from('\uFEFFphone\n+14155550100\n', 'utf16le'), 422, /not UTF-8/],
    [
      'a quote never closed',
      'phone,name\n+14155550100,"Ann\n+14155550101,Bob\n',
      422,
      /quoted cell is never closed/,
    ],
    ['a stray quote', 'phone,name\n+14155550100,"Ann"x\n', 422, /quote inside a quoted cell is not doubled/],
    ['a 100 kB line', `phone,name\n+14155550100,${'a'.repeat(100_000)}\n`, 422, /longer than 64 kB/],
    [
      '10,000 columns',
      `${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\n`,
      422,
      /10000 columns/,
    ],
    ['an empty file', '', 422, /empty/],
    ['no phone column', 'name,email\nAnn,a@example.com\n', 422, /No phone column/],
    ['NUL bytes', Buffer.from('phone\n+1415\u00005550100\n'), 422, /NUL characters: it is not UTF-8/],
  ];

  it.each(HOSTILE)(
    'refuses %s whole, with a clear 4xx, and keeps nothing of it',
    async (_name, body, status, message) => {
      const ws = await t.workspace({ defaultCountryCode: '1' });
      const res = await upload(ws.key, body);
      expect(res.statusCode).toBe(status);
      expect(res.json().error.message).toMatch(message);
      expect(await importsLeft(ws.id)).toBe(0);
      expect(await contacts(ws.key)).toEqual([]);
    },
  );

  it('refuses a file past the size or row limits with 413, by its declared length or as it streams', async () => {
    const ws = await t.workspace({ defaultCountryCode: '1' });
    const declared = await upload(ws.key, 'phone\n', '', {
      ...csvHeaders,
      'content-length': String(70 * 1024 * 1024),
    });
    expect(declared.statusCode).toBe(413);
    const saved = { ...CSV_LIMITS };
    try {
      CSV_LIMITS.bytes = 4096;
      const streamed = await upload(ws.key, Readable.from([`phone\n${'+14155550100\n'.repeat(1000)}`]));
      expect(streamed.statusCode).toBe(413);
      expect(streamed.json().error.code).toBe('payload_too_large');
      Object.assign(CSV_LIMITS, saved);
      CSV_LIMITS.rows = 3;
      const rows = await upload(ws.key, 'phone\n+14155550100\n+14155550101\n+14155550102\n+14155550103\n');
      expect(rows.statusCode).toBe(413);
      expect(rows.json().error.message).toMatch(/more than 3 rows/);
    } finally {
      Object.assign(CSV_LIMITS, saved);
    }
    expect(await importsLeft(ws.id)).toBe(0);
  });

  it('answers a real client 413 over HTTP while it is still sending, rather than cutting the connection', async () => {
    const ws = await t.workspace({ defaultCountryCode: '1' });
    const base = await listen(t);
    const saved = CSV_LIMITS.bytes;
    CSV_LIMITS.bytes = 64 * 1024;
    try {
      const chunk = Buffer.from('+14155550100,Someone\n'.repeat(1000));
      const body = Readable.from(
        (function* () {
          yield Buffer.from('phone,name\n');
          for (let i = 0; i < 50; i++) yield chunk;
        })(),
      );
      const res = await fetch(`${base}/api/v1/contacts/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'text/csv' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    } finally {
      CSV_LIMITS.bytes = saved;
    }
    expect(await importsLeft(ws.id)).toBe(0);
  });

  it('refuses JSON with 415, and a mapping naming a column the file lacks with 422', async () => {
    const ws = await t.workspace({ defaultCountryCode: '1' });
    const json = await t.api('POST', '/contacts/import', ws.key, { phone: '+14155550100' });
    expect(json.statusCode).toBe(415);
    const missing = await upload(ws.key, 'phone\n+14155550100\n', '?name_column=Nom');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.details).toEqual([
      { field: 'name_column', message: expect.stringMatching(/no column "Nom"/) },
    ]);
  });

  it("never reads or writes another workspace's contacts or imports", async () => {
    const a = await t.workspace({ defaultCountryCode: '1' });
    const b = await t.workspace({ defaultCountryCode: '1' });
    await t.api('POST', '/contacts', a.key, { phone: '+14155550100', name: 'A’s', tags: ['a'] });
    const res = await upload(b.key, 'phone,name,tags\n+14155550100,B’s,b\n');
    const done = await finished(b.key, res.json().import.id);
    expect(done.import.created).toBe(1);
    expect(await contacts(a.key)).toEqual([expect.objectContaining({ name: 'A’s', tags: ['a'] })]);
    expect((await t.api('GET', `/contacts/imports/${res.json().import.id}`, a.key)).statusCode).toBe(404);
    expect((await t.api('GET', '/contacts/export', a.key)).body).not.toContain('B’s');
  });
});

describe('an upload cut off with its process', () => {
  it('is removed with its staged rows by the cleanup an hour on, and never shown meanwhile', async () => {
    const ws = await t.workspace();
    const stale = (age: string, id: string) =>
      t.ctx.db.query(
        `INSERT INTO contact_imports (workspace_id, id, status, total_rows, created_at)
         VALUES ($1, $2, 'receiving', 0, now() - $3::interval)`,
        [ws.id, id, age],
      );
    await stale('2 hours', 'imp_old');
    await stale('1 minute', 'imp_new');
    await t.ctx.db.query(
      `INSERT INTO contact_import_rows (workspace_id, import_id, row_number, fields) VALUES ($1, 'imp_old', 2, '{"p": "1"}')`,
      [ws.id],
    );
    expect((await t.api('GET', '/contacts/imports/imp_new', ws.key)).statusCode).toBe(404);
    expect(await forgetAbandonedUploads(t.ctx.db)).toBe(1);
    expect(await importsLeft(ws.id)).toBe(1);
  });
});

describe('GET /contacts/export', () => {
  it('streams every contact as CSV that reads back, with formula cells made inert', async () => {
    const ws = await t.workspace({ defaultCountryCode: '1' });
    await t.api('POST', '/contacts', ws.key, {
      phone: '+14155550100',
      name: '=HYPERLINK("http://evil.example","click")',
      tags: ['-5', 'vip'],
      traits: { city: '@SUM(1)', score: 3 },
    });
    await t.api('POST', '/contacts', ws.key, {
      phone: '+14155550101',
      name: 'Bob, "the builder"',
      opted_out: true,
    });
    const res = await t.api('GET', '/contacts/export', ws.key);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="contacts-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const records: Record<string, string>[] = parse(res.body, { bom: true, columns: true });
    const byPhone = Object.fromEntries(records.map((r) => [r.phone, r]));
    expect(Object.keys(records[0]!)).toEqual([
      'id',
      'phone',
      'name',
      'email',
      'tags',
      'opted_out',
      'opted_out_at',
      'created_at',
      'updated_at',
      'trait:city',
      'trait:score',
    ]);
    expect(byPhone['14155550100']).toMatchObject({
      name: `'=HYPERLINK("http://evil.example","click")`,
      tags: `'-5, vip`,
      'trait:city': `'@SUM(1)`,
      'trait:score': '3',
      opted_out: 'false',
    });
    expect(byPhone['14155550101']).toMatchObject({ name: 'Bob, "the builder"', opted_out: 'true' });

    const other = await t.workspace();
    const back = await upload(other.key, res.rawPayload);
    await finished(other.key, back.json().import.id);
    const again = await contacts(other.key);
    expect(again.map((c: { phone: string }) => c.phone).sort()).toEqual(['14155550100', '14155550101']);
  });

  it('is there for the web app too, leads included, each in its own workspace', async () => {
    const mine = await workspaceWithOwner(t);
    const theirs = await workspaceWithOwner(t);
    await t.api('POST', '/contacts', mine.apiKey, { phone: '+14155550100', name: 'Mine' });
    await t.api('POST', '/contacts', theirs.apiKey, { phone: '+14155550101', name: 'Theirs' });
    const res = await mine.client.call('GET', '/contacts/export');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Mine');
    expect(res.body).not.toContain('Theirs');
    await t.ctx.db.query(
      `INSERT INTO leads (workspace_id, id, name, source, source_id, fields) VALUES ($1, 'ld_x', '+cmd', 'form', 'fm_x', '{"a":1}')`,
      [theirs.workspaceId],
    );
    const leads = await theirs.client.call('GET', '/leads/export');
    expect(parse(leads.body, { bom: true, columns: true })).toEqual([
      expect.objectContaining({ id: 'ld_x', name: "'+cmd", fields: '{"a": 1}', status: 'new' }),
    ]);
    expect((await mine.client.call('GET', '/leads/export')).body).not.toContain('ld_x');
  });
});

describe('the web app upload', () => {
  it('imports a text/csv body into the signed-in workspace only', async () => {
    const mine = await workspaceWithOwner(t);
    const res = await mine.client.call(
      'POST',
      '/contacts/import',
      'phone,name\n+14155550100,Web\n',
      csvHeaders,
    );
    expect(res.statusCode).toBe(202);
    const id = res.json().import.id;
    await until(
      async () =>
        (await mine.client.call('GET', `/contacts/imports/${id}`)).json().import.status === 'completed',
    );
    expect(await contacts(mine.apiKey)).toEqual([expect.objectContaining({ name: 'Web' })]);
    const theirs = await workspaceWithOwner(t);
    expect((await theirs.client.call('GET', `/contacts/imports/${id}`)).statusCode).toBe(404);
  });
});
