import { isTemplateLanguage } from '../../../../src/lib/template-languages';

// Kept in this browser per workspace: templates synced from Meta carry every language the account
// has, so the server's list cannot say which one the team writes in.
const key = (workspaceId: string) => `parley.template-language.${workspaceId}`;

/** The language of the last template submitted from this editor in the workspace, else en_US. */
export function lastUsedLanguage(workspaceId: string): string {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(key(workspaceId));
  } catch {
    // Storage refused (a private window's policy): the default will do.
  }
  return stored && isTemplateLanguage(stored) ? stored : 'en_US';
}

export function rememberLanguage(workspaceId: string, language: string): void {
  try {
    localStorage.setItem(key(workspaceId), language);
  } catch {
    // As above: nothing to remember it in.
  }
}
