const MAX_DEPTH = 32;
// A UTF-16 surrogate without its pair: JSON allows it ("\ud800"), PostgreSQL's jsonb refuses it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export type Checked = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Makes a parsed JSON value storable as jsonb: lone surrogates become U+FFFD (as invalid UTF-8 bytes
 * do), while U+0000 (which PostgreSQL cannot store), nesting past 32 levels and numbers past double
 * range (JSON.parse reads 1e400 as Infinity, which jsonb would hold as null) are refused. `path` names
 * where the value sits, for the message.
 */
export function storableJson(value: unknown, depth = 0, path = ''): Checked {
  if (depth > MAX_DEPTH)
    return { ok: false, message: `The body is nested more than ${MAX_DEPTH} levels deep` };
  if (typeof value === 'string') return text(value);
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return { ok: false, message: `${path || 'The body'} is a number too large to store` };
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [i, item] of value.entries()) {
      const c = storableJson(item, depth + 1, `${path}[${i}]`);
      if (!c.ok) return c;
      out.push(c.value);
    }
    return { ok: true, value: out };
  }
  if (value !== null && typeof value === 'object') {
    // No prototype, so a "__proto__" key stays a plain key.
    const out: Record<string, unknown> = Object.create(null);
    for (const [key, item] of Object.entries(value)) {
      const k = text(key);
      if (!k.ok) return k;
      const c = storableJson(item, depth + 1, path ? `${path}.${key}` : key);
      if (!c.ok) return c;
      out[k.value as string] = c.value;
    }
    return { ok: true, value: out };
  }
  return { ok: true, value };
}

function text(value: string): Checked {
  if (value.includes('\u0000'))
    return { ok: false, message: 'The body contains U+0000, which cannot be stored' };
  return { ok: true, value: value.replace(LONE_SURROGATE, '\ufffd') };
}
