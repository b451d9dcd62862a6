import type { Audience, Period } from './types';
import { zonedToIso } from './zoned-time';

export type TagRule = 'all' | 'any' | 'none';

export interface TraitRow {
  key: string;
  op: 'equals' | 'exists' | 'missing';
  value: string;
}

/** The audience builder's inputs as typed; `toAudience` turns them into the API's audience. */
export interface AudienceForm {
  source: 'rules' | 'import';
  tags: Record<string, TagRule>;
  traits: TraitRow[];
  created: { from: string; to: string };
  lastInbound: { from: string; to: string };
  importId: string;
}

export const blankAudience: AudienceForm = {
  source: 'rules',
  tags: {},
  traits: [],
  created: { from: '', to: '' },
  lastInbound: { from: '', to: '' },
  importId: '',
};

/** A trait value as typed: true/false and plain numbers as such (as the API stores them), else text. */
function traitValue(v: string): string | number | boolean {
  if (v === 'true' || v === 'false') return v === 'true';
  return v.trim() !== '' && String(Number(v)) === v ? Number(v) : v;
}

/** Whole days in the workspace's time zone: from the first one's start to the last one's end. */
function period(p: { from: string; to: string }, tz: string): Period | undefined {
  const from = p.from ? zonedToIso(`${p.from}T00:00`, tz) : null;
  const end = p.to ? zonedToIso(`${p.to}T23:59`, tz) : null;
  const to = end?.replace(/:00([+-])/, ':59$1');
  if (!from && !to) return undefined;
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

export function toAudience(f: AudienceForm, tz: string): Audience {
  if (f.source === 'import') return f.importId ? { import_id: f.importId } : {};
  const a: Audience = {};
  const tagged = (rule: TagRule) =>
    Object.entries(f.tags)
      .filter(([, r]) => r === rule)
      .map(([t]) => t);
  if (tagged('all').length) a.tags_all = tagged('all');
  if (tagged('any').length) a.tags_any = tagged('any');
  if (tagged('none').length) a.tags_none = tagged('none');
  const traits = f.traits
    .filter((t) => t.key.trim())
    .map((t) =>
      t.op === 'equals'
        ? { key: t.key.trim(), equals: traitValue(t.value) }
        : { key: t.key.trim(), exists: t.op === 'exists' },
    );
  if (traits.length) a.traits = traits;
  const created = period(f.created, tz);
  if (created) a.created = created;
  const lastInbound = period(f.lastInbound, tz);
  if (lastInbound) a.last_inbound = lastInbound;
  return a;
}
