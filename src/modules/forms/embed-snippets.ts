import type { Queryable } from '../../db/db.js';
import type { FormField } from './form-fields.js';
import { escapeHtml, formHtml } from './html.js';

export interface EmbedSnippets {
  hosted_url: string;
  /** Renders the form where it is pasted; posts with fetch (JavaScript). */
  script: string;
  /** A plain HTML form that posts without JavaScript (urlencoded; answered with a page or a redirect). */
  html: string;
}

/** Publish & embed: the three ways a form reaches people, for the form with this id in the workspace. */
export async function embedSnippets(
  db: Queryable,
  appUrl: string,
  workspaceId: string,
  formId: string,
): Promise<EmbedSnippets | null> {
  const { rows } = await db.query<{ token: string; fields: FormField[] }>(
    'SELECT token, fields FROM forms WHERE workspace_id = $1 AND id = $2',
    [workspaceId, formId],
  );
  const form = rows[0];
  if (!form) return null;
  const hosted = `${appUrl}/f/${encodeURIComponent(form.token)}`;
  return {
    hosted_url: hosted,
    script: `<script src="${escapeHtml(`${hosted}/embed.js`)}" async></script>`,
    html: formHtml(form, `${appUrl}/api/forms/submit`),
  };
}
