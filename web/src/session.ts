import { createContext, useContext } from 'react';
import type { Language } from './i18n/languages';

export interface AppSession {
  authenticated: true;
  csrf_token: string;
  /** language: the one the person chose (null: their browser's). */
  user: { id: string; email: string; name: string; language: Language | null };
  workspace: { id: string; name: string; default_country_code: string | null; time_zone: string };
  role: 'owner' | 'admin' | 'member';
  can_manage: boolean;
  workspaces: { id: string; name: string; role: string }[];
  app_url: string;
  /** The server sends e-mail (SMTP_URL): invitations can go by mail. */
  sends_mail: boolean;
}

export const SessionContext = createContext<{ session: AppSession; refresh: () => Promise<void> } | null>(
  null,
);

export function useSession() {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside the signed-in app');
  return value;
}
