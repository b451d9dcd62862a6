import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api } from '../api';
import { navigate } from '../router';
import { InputField } from '../ui/Field';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { EmailField } from './EmailField';
import { NewPasswordField } from './NewPasswordField';

/** First run: the owner account and the first workspace. */
export function SetupPage({ onDone }: { onDone: () => Promise<void> }) {
  const { t } = useTranslation('auth');
  const [form, setForm] = useState({
    name: '',
    email: '',
    password: '',
    workspace_name: '',
    default_country_code: '',
  });
  const { busy, error, fieldErrors, run } = useAction();
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });
  const submit = () =>
    run(async () => {
      await api('POST', '/setup', {
        ...form,
        default_country_code: form.default_country_code.trim() || null,
      });
      navigate('/', true);
      await onDone();
    });
  return (
    <AuthLayout title={t('setup.title')} subtitle={t('setup.subtitle')}>
      <AuthForm
        onSubmit={submit}
        busy={busy}
        error={error}
        submitLabel={t('setup.submit')}
        busyLabel={t('setup.busy')}
      >
        <InputField
          label={t('yourName')}
          error={fieldErrors.name}
          maxLength={FIELD_LIMITS.personName}
          value={form.name}
          onChange={set('name')}
          autoComplete="name"
        />
        <EmailField
          error={fieldErrors.email}
          value={form.email}
          onChange={set('email')}
          autoComplete="email"
        />
        <NewPasswordField
          label={t('password')}
          error={fieldErrors.password}
          value={form.password}
          onChange={set('password')}
        />
        <InputField
          label={t('setup.workspaceName')}
          hint={t('setup.workspaceHint')}
          error={fieldErrors.workspace_name}
          required
          maxLength={FIELD_LIMITS.workspaceName}
          value={form.workspace_name}
          onChange={set('workspace_name')}
          autoComplete="organization"
        />
        <InputField
          label={t('setup.countryCode')}
          hint={t('setup.countryCodeHint')}
          error={fieldErrors.default_country_code}
          inputMode="numeric"
          placeholder="91"
          value={form.default_country_code}
          onChange={set('default_country_code')}
        />
      </AuthForm>
    </AuthLayout>
  );
}
