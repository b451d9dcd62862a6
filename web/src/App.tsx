import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { api, onSessionEnded, queryClient, setCsrfToken } from './api';
import { setTimeZone } from './i18n/format';
import { applyLanguage } from './i18n/init';
import { browserLanguage } from './i18n/languages';
import { ForgotPasswordPage } from './pages/ForgotPassword';
import { InvitePage } from './pages/Invite';
import { LoginPage } from './pages/Login';
import { ResetPasswordPage } from './pages/ResetPassword';
import { SetupPage } from './pages/Setup';
import { match, useLocation } from './router';
import { Shell } from './Shell';
import { type AppSession, SessionContext } from './session';
import { ErrorNote } from './ui/ErrorNote';
import { Loading } from './ui/Loading';

type SessionAnswer = AppSession | { authenticated: false; needs_setup: boolean; sends_mail: boolean };

export function App() {
  const [answer, setAnswer] = useState<SessionAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { path } = useLocation();

  const who = useRef('');
  const refresh = useCallback(async () => {
    try {
      const s = await api<SessionAnswer>('GET', '/session');
      setCsrfToken(s.authenticated ? s.csrf_token : '');
      if (s.authenticated) setTimeZone(s.workspace.time_zone);
      // The person's choice, else the browser's: applied before the answer renders, so no English flashes.
      await applyLanguage((s.authenticated && s.user.language) || browserLanguage(navigator.languages));
      // Another person or workspace (signed out, switched) must not see the last one's cached answers.
      const now = s.authenticated ? `${s.user.id} ${s.workspace.id}` : '';
      if (now !== who.current) void (now ? queryClient.resetQueries() : queryClient.clear());
      who.current = now;
      setAnswer(s);
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  }, []);

  useEffect(() => {
    onSessionEnded(() => void refresh());
    void refresh();
  }, [refresh]);

  if (error && !answer) {
    return (
      <div className="auth-page">
        <ErrorNote message={error} onRetry={() => void refresh()} />
      </div>
    );
  }
  if (!answer) {
    return (
      <div className="auth-page">
        <Loading />
      </div>
    );
  }
  const outside = outsidePage(answer, path, refresh);
  if (outside || !answer.authenticated) return outside;
  return (
    <SessionContext.Provider value={{ session: answer, refresh }}>
      <Shell />
    </SessionContext.Provider>
  );
}

/** The page for a path outside the signed-in app: an invitation, a reset link, setup, sign-in. */
function outsidePage(answer: SessionAnswer, path: string, refresh: () => Promise<void>): ReactNode {
  const invite = match('/invite/:token', path);
  if (invite?.token) return <InvitePage token={invite.token} onDone={refresh} />;
  const reset = match('/reset-password/:token', path);
  if (reset?.token) return <ResetPasswordPage token={reset.token} onDone={refresh} />;
  if (answer.authenticated) return null;
  if (answer.needs_setup) return <SetupPage onDone={refresh} />;
  if (path === '/forgot-password') return <ForgotPasswordPage sendsMail={answer.sends_mail} />;
  return <LoginPage onDone={refresh} />;
}
