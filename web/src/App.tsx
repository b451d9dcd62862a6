import { useCallback, useEffect, useState } from 'react';
import { api, onSessionEnded, setCsrfToken } from './api';
import { InvitePage } from './pages/Invite';
import { LoginPage } from './pages/Login';
import { SetupPage } from './pages/Setup';
import { match, useLocation } from './router';
import { Shell } from './Shell';
import { type AppSession, SessionContext } from './session';
import { ErrorNote, Loading } from './ui';

type SessionAnswer = AppSession | { authenticated: false; needs_setup: boolean };

export function App() {
  const [answer, setAnswer] = useState<SessionAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { path } = useLocation();

  const refresh = useCallback(async () => {
    try {
      const s = await api<SessionAnswer>('GET', '/session');
      setCsrfToken(s.authenticated ? s.csrf_token : '');
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
  const invite = match('/invite/:token', path);
  if (invite?.token) return <InvitePage token={invite.token} onDone={refresh} />;
  if (!answer.authenticated) {
    if (answer.needs_setup) return <SetupPage onDone={refresh} />;
    return <LoginPage onDone={refresh} />;
  }
  return (
    <SessionContext.Provider value={{ session: answer, refresh }}>
      <Shell />
    </SessionContext.Provider>
  );
}
