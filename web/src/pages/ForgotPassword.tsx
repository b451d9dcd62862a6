import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { withElements } from '../i18n/with-elements';
import { Link } from '../router';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { EmailField } from './EmailField';

/** "Forgot your password?": a link by e-mail when the server sends mail, else who can help. */
export function ForgotPasswordPage({ sendsMail }: { sendsMail: boolean }) {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  const back = (
    <p>
      <Link href="/">{t('backToSignIn')}</Link>
    </p>
  );
  if (!sendsMail) {
    return (
      <AuthLayout title={t('forgot.title')}>
        <p>
          {withElements((values) => t('forgot.noMail', { command: values.command }), {
            command: <code dir="ltr">parley user reset-password --email your@address</code>,
          })}
        </p>
        {back}
      </AuthLayout>
    );
  }
  if (sent) {
    return (
      <AuthLayout title={t('forgot.checkTitle')}>
        <p role="status">
          {withElements((values) => t('forgot.sent', { email: values.email }), {
            email: (
              <strong>
                <bdi>{email}</bdi>
              </strong>
            ),
          })}
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
    <AuthLayout title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      <AuthForm
        onSubmit={submit}
        busy={busy}
        error={error}
        submitLabel={t('forgot.submit')}
        busyLabel={t('forgot.busy')}
      >
        <EmailField error={fieldErrors.email} value={email} onChange={(e) => setEmail(e.target.value)} />
      </AuthForm>
      {back}
    </AuthLayout>
  );
}
