import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { Link } from '../router';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { NewPasswordField } from './NewPasswordField';

/** The page a reset link opens: a new password, then sign in with it. */
export function ResetPasswordPage({ token, onDone }: { token: string; onDone: () => Promise<void> }) {
  const { t } = useTranslation('auth');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  if (done) {
    return (
      <AuthLayout title={t('reset.doneTitle')}>
        <p role="status">{t('reset.done')}</p>
        <Link href="/" className="btn primary wide">
          {t('reset.signIn')}
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
    <AuthLayout title={t('reset.title')}>
      <AuthForm
        onSubmit={submit}
        busy={busy}
        error={error}
        submitLabel={t('reset.submit')}
        busyLabel={t('reset.busy')}
      >
        <NewPasswordField
          label={t('reset.newPassword')}
          error={fieldErrors.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </AuthForm>
      <p>
        <Link href="/">{t('backToSignIn')}</Link>
      </p>
    </AuthLayout>
  );
}
