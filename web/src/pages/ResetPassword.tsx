import { useState } from 'react';
import { api } from '../api';
import { Link } from '../router';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { NewPasswordField } from './NewPasswordField';

/** The page a reset link opens: a new password, then sign in with it. */
export function ResetPasswordPage({ token, onDone }: { token: string; onDone: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  if (done) {
    return (
      <AuthLayout title="Password changed">
        <p role="status">
          Your new password is set, and every device signed in with the old one is signed out.
        </p>
        <Link href="/" className="btn primary wide">
          Sign in
        </Link>
      </AuthLayout>
    );
  }
  const submit = () =>
    run(async () => {
      await api('POST', '/password-reset/complete', { token, password });
      setDone(true);
      await onDone();
    });
  return (
    <AuthLayout title="Choose a new password">
      <AuthForm
        onSubmit={submit}
        busy={busy}
        error={error}
        submitLabel="Set new password"
        busyLabel="Saving…"
      >
        <NewPasswordField
          label="New password"
          error={fieldErrors.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </AuthForm>
      <p>
        <Link href="/">Back to sign in</Link>
      </p>
    </AuthLayout>
  );
}
