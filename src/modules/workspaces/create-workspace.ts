import { ApiError } from '../../api/errors.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { isOneLine, ONE_LINE_WORDS } from '../../lib/one-line.js';
import { isCallingCode } from '../../lib/phone.js';
import { DEFAULT_PLAN, planExists } from './plans.js';

export interface NewWorkspace {
  name: string;
  defaultCountryCode?: string | null;
  plan?: string;
}

export async function createWorkspace(db: Queryable, input: NewWorkspace): Promise<{ id: string }> {
  const name = input.name.trim();
  if (!name || name.length > 200) throw ApiError.invalid('name', 'Enter a name of 1 to 200 characters.');
  // The CLI's `workspace create` comes here without the routes' schema.
  if (!isOneLine(name)) throw ApiError.invalid('name', ONE_LINE_WORDS);
  const cc = input.defaultCountryCode?.replace(/^\+/, '') || null;
  if (cc !== null && !isCallingCode(cc)) {
    throw ApiError.invalid(
      'default_country_code',
      `default country code ${cc} is not a known calling code (for example 91 or 1)`,
    );
  }
  const plan = input.plan ?? DEFAULT_PLAN;
  if (!(await planExists(db, plan))) throw ApiError.invalid('plan', `plan "${plan}" does not exist`);
  const id = newId('ws');
  await db.query('INSERT INTO workspaces (id, name, default_country_code, plan) VALUES ($1, $2, $3, $4)', [
    id,
    name,
    cc,
    plan,
  ]);
  return { id };
}
