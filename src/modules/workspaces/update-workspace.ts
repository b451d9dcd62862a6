import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { isCallingCode } from '../../lib/phone.js';
import { KEY_NOTICES } from '../api-keys/key-notices.js';
import { keywordForm, MAX_KEYWORD } from '../contacts/consent-keywords.js';

export interface WorkspaceChanges {
  name?: string;
  default_country_code?: string | null;
  mark_read?: boolean;
  opt_out_keywords?: string[];
  opt_in_keywords?: string[];
  opt_out_confirmation?: string | null;
  opt_in_confirmation?: string | null;
  time_zone?: string;
}

/** An IANA time zone name the runtime knows (Intl's own list of zones, with its aliases). */
function timeZone(zone: string | undefined): string | null {
  if (zone === undefined) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone.trim() });
    return zone.trim();
  } catch {
    throw ApiError.invalid(
      'time_zone',
      `"${zone.slice(0, 64)}" is not a time zone; choose one such as Asia/Kolkata or UTC.`,
    );
  }
}

const MAX_KEYWORDS = 20;

/** The words as they are matched (one case, no surrounding punctuation), each once; a blank one is refused. */
function keywords(field: string, words: string[] | undefined): string[] | null {
  if (words === undefined) return null;
  const kept = [...new Set(words.map(keywordForm))];
  if (kept.includes('')) throw ApiError.invalid(field, 'Give each word at least one letter or digit.');
  const long = kept.find((w) => w.length > MAX_KEYWORD);
  if (long)
    throw ApiError.invalid(field, `Shorten "${long.slice(0, 20)}…" to at most ${MAX_KEYWORD} characters.`);
  if (kept.length > MAX_KEYWORDS) throw ApiError.invalid(field, `Use at most ${MAX_KEYWORDS} words.`);
  return kept;
}

/** Settings › General: a field left undefined stays; a null or empty country code clears the default. */
export async function updateWorkspace(
  db: Queryable,
  workspaceId: string,
  changes: WorkspaceChanges,
): Promise<void> {
  const { name, default_country_code, mark_read } = changes;
  const cc =
    default_country_code === undefined ? undefined : default_country_code?.replace(/^\+/, '') || null;
  if (cc && !isCallingCode(cc)) {
    throw ApiError.validation(
      'default_country_code',
      `${cc} is not a known calling code (for example 91 or 1)`,
    );
  }
  if (name !== undefined && !name.trim()) throw ApiError.invalid('name', 'Enter a name.');
  const zone = timeZone(changes.time_zone);
  const optOut = keywords('opt_out_keywords', changes.opt_out_keywords);
  const optIn = keywords('opt_in_keywords', changes.opt_in_keywords);
  const both = optOut && optIn ? optOut.filter((w) => optIn.includes(w)) : [];
  if (both.length)
    throw ApiError.invalid(
      'opt_in_keywords',
      `${both.join(', ')} cannot both opt out and opt in: remove it from one of the lists.`,
    );
  const confirmation = (v: string | null | undefined) => (v === undefined ? undefined : v?.trim() || null);
  const confirmOut = confirmation(changes.opt_out_confirmation);
  const confirmIn = confirmation(changes.opt_in_confirmation);
  if (optOut || optIn || confirmOut !== undefined || confirmIn !== undefined) {
    await db.query(
      `UPDATE workspaces SET opt_out_keywords = COALESCE($2, opt_out_keywords),
         opt_in_keywords = COALESCE($3, opt_in_keywords),
         opt_out_confirmation = CASE WHEN $4 THEN $5 ELSE opt_out_confirmation END,
         opt_in_confirmation = CASE WHEN $6 THEN $7 ELSE opt_in_confirmation END, updated_at = now()
       WHERE id = $1`,
      [
        workspaceId,
        optOut,
        optIn,
        confirmOut !== undefined,
        confirmOut ?? null,
        confirmIn !== undefined,
        confirmIn ?? null,
      ],
    );
  }
  // Cached API key principals carry the default country code: a change of it is announced to every
  // instance on commit, and updated_at moves for their fallback poll.
  await db.query(
    `WITH changed AS (
       UPDATE workspaces SET name = COALESCE($2, name),
         default_country_code = CASE WHEN $3 THEN $4 ELSE default_country_code END,
         mark_read = COALESCE($6, mark_read), time_zone = COALESCE($7, time_zone), updated_at = now()
       WHERE id = $1 RETURNING id)
     SELECT pg_notify($5, 'workspace:' || id) FROM changed WHERE $3`,
    [workspaceId, name?.trim() ?? null, cc !== undefined, cc ?? null, KEY_NOTICES, mark_read ?? null, zone],
  );
}
