import type { Queryable } from '../../db/db.js';
import type { Language } from './languages.js';

/** The person's own language for the web app, in every workspace they belong to; null follows the browser. */
export async function setLanguage(db: Queryable, userId: string, language: Language | null): Promise<void> {
  await db.query('UPDATE users SET language = $2, updated_at = now() WHERE id = $1', [userId, language]);
}
