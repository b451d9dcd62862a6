const b64 = (text: string) => Buffer.from(text).toString('base64url');

/**
 * Page queries every cursor-paged REST v1 list refuses with 422, each with the field it names:
 * limits out of 1..100 or not whole numbers, and cursors that are empty, too long, not ours, or ours
 * in shape with a hostile key (`id`: one of the list's own kind, `prefix`_1 unless its ids are not
 * prefixed, as the audit log's numbers).
 */
export function hostilePageQueries(prefix: string, id = `${prefix}_1`): [query: string, field: string][] {
  return [
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=1e309', 'limit'],
    ['cursor=', 'cursor'],
    [`cursor=${'a'.repeat(513)}`, 'cursor'],
    ['cursor=not-a-cursor', 'cursor'],
    ['cursor=%00', 'cursor'],
    [`cursor=${b64('{"a":1}')}`, 'cursor'],
    [`cursor=${b64(`["12", "${id}", "x"]`)}`, 'cursor'],
    [`cursor=${b64(`["-1", "${id}"]`)}`, 'cursor'],
    [`cursor=${b64(`["1", "${id}' OR '1'='1"]`)}`, 'cursor'],
  ];
}

/** The fields a 422 names: a query's as the schema names them (querystring.limit), a body's by path. */
export const fieldsNamed = (res: { json(): { error: { details?: { field: string }[] } } }) =>
  (res.json().error.details ?? []).map((d) => d.field.replace(/^querystring\.|^body\.|^\//, ''));
