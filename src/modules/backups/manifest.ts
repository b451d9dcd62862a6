import { readFileSync } from 'node:fs';
import { type Static, Type } from 'typebox';

/** parley-backup.json, at the top of every backup archive beside the data directory's files. */
export const BackupManifestSchema = Type.Object({
  format: Type.Literal(1),
  parley_version: Type.String(),
  created_at: Type.String(),
  /** The names in schema_migrations when the snapshot was taken. */
  migrations: Type.Array(Type.String()),
  /** From pg/PG_VERSION: the PostgreSQL whose files these are. */
  postgres_major: Type.Integer(),
  media: Type.Object({ files: Type.Integer({ minimum: 0 }), bytes: Type.Integer({ minimum: 0 }) }),
});

export type BackupManifest = Static<typeof BackupManifestSchema>;

export const MANIFEST_FILE = 'parley-backup.json';

export function parleyVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  return String(pkg.version);
}

/** Thrown for anything the operator must fix; the CLI prints its message alone. */
export class BackupError extends Error {}

export interface RestoreResult {
  data_dir: string;
  parley_version: string;
  created_at: string;
  media_files: number;
  /** Migrations of this version the backup had not had: `serve` applies them on start. */
  migrations_to_apply: number;
}
