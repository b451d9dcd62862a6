import { useState } from 'react';
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
    <AuthLayout
      title="Welcome to Parley"
      subtitle="Create the owner account and your workspace. This screen shows only once, on a new server."
    >
      <AuthForm
        onSubmit={submit}
        busy={busy}
        error={error}
        submitLabel="Create account and workspace"
        busyLabel="Creating…"
      >
        <InputField
          label="Your name"
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
          label="Password"
          error={fieldErrors.password}
          value={form.password}
          onChange={set('password')}
        />
        <InputField
          label="Workspace name"
          hint="Your company or team; you can change it later."
          error={fieldErrors.workspace_name}
          required
          maxLength={FIELD_LIMITS.workspaceName}
          value={form.workspace_name}
          onChange={set('workspace_name')}
          autoComplete="organization"
        />
        <InputField
          label="Default country code (optional)"
          hint="Numbers written without a country code get this one, e.g. 91 or 1."
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
