import { type Static, Type } from 'typebox';
import { ApiError } from '../../../api/errors.js';
import { Text } from '../../../api/schema.js';

const Column = Text({ minLength: 1, maxLength: 200 });

/** Which header holds what; without it, columns named phone, name, email (e-mail) and tags, and every `trait:<key>` column. */
export const ImportQuery = Type.Object({
  phone_column: Type.Optional(Column),
  name_column: Type.Optional(Column),
  email_column: Type.Optional(Column),
  tags_column: Type.Optional(Column),
  trait_columns: Type.Optional(
    Text({
      maxLength: 4000,
      description:
        'Comma-separated headers whose cells become traits keyed by the header (beside any `trait:<key>` column)',
    }),
  ),
});
export type ImportQuery = Static<typeof ImportQuery>;

export interface Mapping {
  phone: number;
  name: number | null;
  email: number | null;
  tags: number | null;
  traits: { key: string; index: number }[];
}

const DEFAULT_NAMES = {
  phone: ['phone', 'phone number', 'mobile', 'whatsapp'],
  name: ['name', 'full name'],
  email: ['email', 'e-mail', 'email address'],
  tags: ['tags', 'tag'],
};
const TRAIT_PREFIX = 'trait:';

/** The header's columns for each field, from the query or by name; a header the query names that the file lacks is a 422. */
export function mapColumns(header: string[], query: ImportQuery): Mapping {
  const names = header.map((h) => h.trim());
  const find = (field: keyof typeof DEFAULT_NAMES, given: string | undefined): number | null => {
    if (given !== undefined) {
      const at = names.indexOf(given.trim());
      if (at < 0)
        throw ApiError.invalid(
          `${field}_column`,
          `The file has no column "${given}"; its columns are ${list(names)}`,
        );
      return at;
    }
    const at = names.findIndex((n) => DEFAULT_NAMES[field].includes(n.toLowerCase()));
    return at < 0 ? null : at;
  };
  const phone = find('phone', query.phone_column);
  if (phone === null) {
    throw ApiError.invalid(
      'phone_column',
      `No phone column: name one with phone_column (the file's columns are ${list(names)})`,
    );
  }
  const traits: Mapping['traits'] = [];
  names.forEach((n, index) => {
    if (n.toLowerCase().startsWith(TRAIT_PREFIX) && n.length > TRAIT_PREFIX.length)
      traits.push({ key: n.slice(TRAIT_PREFIX.length), index });
  });
  for (const given of query.trait_columns
    ?.split(',')
    .map((c) => c.trim())
    .filter(Boolean) ?? []) {
    const index = names.indexOf(given);
    if (index < 0)
      throw ApiError.invalid(
        'trait_columns',
        `The file has no column "${given}"; its columns are ${list(names)}`,
      );
    if (!traits.some((t) => t.index === index)) traits.push({ key: given, index });
  }
  const long = traits.find((t) => t.key.length > 64);
  if (long)
    throw ApiError.invalid(
      'trait_columns',
      `The trait name "${long.key.slice(0, 64)}…" is longer than 64 characters`,
    );
  return {
    phone,
    name: find('name', query.name_column),
    email: find('email', query.email_column),
    tags: find('tags', query.tags_column),
    traits: traits.slice(0, 100),
  };
}

function list(names: string[]): string {
  const shown = names
    .slice(0, 20)
    .map((n) => `"${n.slice(0, 40)}"`)
    .join(', ');
  return names.length > 20 ? `${shown} and ${names.length - 20} more` : shown;
}
