import { ApiError } from '../../api/errors.js';

/** What a quick reply may name, each filled from the contact the reply goes to. */
export const QUICK_REPLY_VARIABLES = ['name', 'first_name', 'phone', 'email'] as const;
type Variable = (typeof QUICK_REPLY_VARIABLES)[number];

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** 422 for a placeholder that is not one of QUICK_REPLY_VARIABLES, so a typo shows when saving, not when sending. */
export function checkQuickReplyVariables(text: string): void {
  for (const [, name] of text.matchAll(PLACEHOLDER)) {
    if (!(QUICK_REPLY_VARIABLES as readonly string[]).includes(name!)) {
      throw ApiError.invalid(
        'text',
        `{{${name!.slice(0, 40)}}} is not a variable; use ${QUICK_REPLY_VARIABLES.map((v) => `{{${v}}}`).join(', ')}.`,
      );
    }
  }
}

export interface ContactValues {
  name: string | null;
  phone: string;
  email: string | null;
}

/** The reply with its variables filled from the contact; one the contact lacks is left empty. */
export function fillQuickReply(text: string, contact: ContactValues): string {
  const values: Record<Variable, string> = {
    name: contact.name?.trim() ?? '',
    first_name: contact.name?.trim().split(/\s+/)[0] ?? '',
    phone: `+${contact.phone}`,
    email: contact.email ?? '',
  };
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    name in values ? values[name as Variable] : whole,
  );
}
