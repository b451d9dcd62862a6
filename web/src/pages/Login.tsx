import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api } from '../api';
import { Link } from '../router';
import { InputField } from '../ui/Field';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { EmailField } from './EmailField';

export function LoginPage({ onDone }: { onDone: () => Promise<void> }) {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = () =>
    run(async () => {
      await api('POST', '/login', { email, password });
      await onDone();
    });
  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <AuthForm
        onSubmit={submit}
        busy={busy}
        error={error}
        submitLabel={t('login.submit')}
        busyLabel={t('login.busy')}
      >
        <EmailField value={email} onChange={(e) => setEmail(e.target.value)} />
        <InputField
          label={t('password')}
          type="password"
          required
          maxLength={FIELD_LIMITS.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
      </AuthForm>
      <p>
        <Link href="/forgot-password">{t('login.forgot')}</Link>
      </p>
    </AuthLayout>
  );
}
