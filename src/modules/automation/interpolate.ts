/**
 * What a step's templates and conditions can read: the contact, the event and the lead of the run,
 * its variables, and what earlier steps found (the latest visit of each: an ask's answer, a call's answer).
 */
export interface Scope {
  contact?: Record<string, unknown>;
  event?: Record<string, unknown>;
  lead?: Record<string, unknown>;
  vars?: Record<string, unknown>;
  steps?: Record<string, unknown>;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*(?:\|\s*(?:"([^"]*)"|'([^']*)'|([^}]*?)))?\s*\}\}/g;

/** The value at a dotted path (`contact.traits.plan`), or undefined. Only own data keys are read. */
export function lookup(scope: Scope, path: string): unknown {
  let value: unknown = scope;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(asText).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Fills `{{contact.name}}`-style placeholders; `{{contact.name | "there"}}` gives a fallback for a
 * missing or empty value. Unknown paths render empty. `missing` collects the paths that had no value.
 */
export function interpolate(template: string, scope: Scope, missing: string[] = []): string {
  return template.replace(PLACEHOLDER, (_match, path: string, dq?: string, sq?: string, bare?: string) => {
    const text = asText(lookup(scope, path));
    if (text !== '') return text;
    const fallback = dq ?? sq ?? bare?.trim();
    if (fallback === undefined || fallback === '') missing.push(path);
    return fallback ?? '';
  });
}
