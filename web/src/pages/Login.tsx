import { useState } from 'react';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api } from '../api';
import { Link } from '../router';
import { InputField } from '../ui/Field';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { EmailField } from './EmailField';

export function LoginPage({ onDone }: { onDone: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = () =>
    run(async () => {
      await api('POST', '/login', { email, password });
      await onDone();
    });
  return (
    <AuthLayout
      title="Sign in"
      subtitle="New here? Ask an owner or admin of your workspace for an invitation link."
    >
      <AuthForm onSubmit={submit} busy={busy} error={error} submitLabel="Sign in" busyLabel="Signing in…">
        <EmailField value={email} onChange={(e) => setEmail(e.target.value)} />
        <InputField
          label="Password"
          type="password"
          required
          maxLength={FIELD_LIMITS.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
      </AuthForm>
      <p>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
    </AuthLayout>
  );
}
