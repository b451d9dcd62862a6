import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../db/db.js';
import type { Definition } from './definition.js';

// Published versions never change, so a process keeps the ones it has read.
const definitions = new LRUCache<string, Definition>({ max: 1000 });

/** A published version's definition (null when there is no such version), read once per process. */
export async function publishedDefinition(
  db: Queryable,
  workspaceId: string,
  automationId: string,
  version: number,
): Promise<Definition | null> {
  const key = `${workspaceId}/${automationId}/${version}`;
  const cached = definitions.get(key);
  if (cached) return cached;
  const { rows } = await db.query<{ definition: Definition }>(
    'SELECT definition FROM automation_versions WHERE workspace_id = $1 AND automation_id = $2 AND version = $3',
    [workspaceId, automationId, version],
  );
  const definition = rows[0]?.definition ?? null;
  if (definition) definitions.set(key, definition);
  return definition;
}
