import { isTemplateLanguage } from '../../../../src/lib/template-languages';
import type { Template } from '../../server-types';

/** The language of the workspace's most recently changed template, when Meta's list has it. */
export function lastUsedLanguage(templates: Template[]): string | null {
  const latest = templates
    .filter((t) => isTemplateLanguage(t.language))
    .reduce<Template | null>((a, t) => (!a || t.updated_at > a.updated_at ? t : a), null);
  return latest?.language ?? null;
}
