import { useState } from 'react';
import { api } from '../api';
import { Link } from '../router';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { EmailField } from './EmailField';

/** "Forgot your password?": a link by e-mail when the server sends mail, else who can help. */
export function ForgotPasswordPage({ sendsMail }: { sendsMail: boolean }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  const back = (
    <p>
      <Link href="/">Back to sign in</Link>
    </p>
  );
  if (!sendsMail) {
    return (
      <AuthLayout title="Forgot your password?">
        <p>
          This server does not send e-mail. Ask the person who runs it to reset your password: they can give
          you a one-time link with <code>parley user reset-password --email your@address</code>.
        </p>
        {back}
      </AuthLayout>
    );
  }
  if (sent) {
    return (
      <AuthLayout title="Check your e-mail">
        <p role="status">
          If an account uses <strong>{email}</strong>, a link to choose a new password is on its way. It works
          once, for one hour.
        </p>
        {back}
      </AuthLayout>
    );
  }
  const submit = () =>
    run(async () => {
      await api('POST', '/password-reset', { email });
      setSent(true);
    });
  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter your e-mail address and we will send you a link."
    >
      <AuthForm onSubmit={submit} busy={busy} error={error} submitLabel="Send me a link" busyLabel="Sending…">
        <EmailField error={fieldErrors.email} value={email} onChange={(e) => setEmail(e.target.value)} />
      </AuthForm>
      {back}
    </AuthLayout>
  );
}
