/** Meta's objects are kept as the network sent them: every field may be missing. */
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
