import type { Queryable } from '../../db/db.js';
import { ident } from './move-tables.js';

const ENABLE = { O: 'ENABLE', A: 'ENABLE ALWAYS', R: 'ENABLE REPLICA' } as const;

/**
 * Runs `load` in the loading transaction with the schema's user triggers off (live events, NOTIFY,
 * counters: the copied rows already hold what they would write) and its foreign keys dropped, then
 * puts both back as they were before the transaction commits. Adding a foreign key again checks every
 * copied row against it, so the load needs no table order and still ends checked. Only the tables'
 * owner is needed (the role that ran the migrations), not a superuser as session_replication_role is.
 */
export async function withChecksSuspended<T>(
  tx: Queryable,
  schema: string,
  load: () => Promise<T>,
): Promise<T> {
  const { rows: triggers } = await tx.query<{ table: string; name: string; enabled: keyof typeof ENABLE }>(
    `SELECT c.relname AS table, t.tgname AS name, t.tgenabled AS enabled
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE c.relnamespace = to_regnamespace($1) AND NOT t.tgisinternal AND t.tgenabled <> 'D'`,
    [schema],
  );
  const { rows: keys } = await tx.query<{ table: string; name: string; definition: string }>(
    `SELECT c.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS definition
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
     WHERE k.contype = 'f' AND c.relnamespace = to_regnamespace($1) AND k.conparentid = 0`,
    [schema],
  );
  const table = (name: string) => `${ident(schema)}.${ident(name)}`;
  for (const t of triggers) await tx.query(`ALTER TABLE ${table(t.table)} DISABLE TRIGGER ${ident(t.name)}`);
  for (const k of keys) await tx.query(`ALTER TABLE ${table(k.table)} DROP CONSTRAINT ${ident(k.name)}`);
  const result = await load();
  for (const k of keys) {
    await tx.query(`ALTER TABLE ${table(k.table)} ADD CONSTRAINT ${ident(k.name)} ${k.definition}`);
  }
  for (const t of triggers) {
    await tx.query(`ALTER TABLE ${table(t.table)} ${ENABLE[t.enabled]} TRIGGER ${ident(t.name)}`);
  }
  return result;
}
