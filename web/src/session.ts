import { createContext, useContext } from 'react';

export interface AppSession {
  authenticated: true;
  csrf_token: string;
  user: { id: string; email: string; name: string };
  workspace: { id: string; name: string; default_country_code: string | null };
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
