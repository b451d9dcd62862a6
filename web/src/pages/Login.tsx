import { useState } from 'react';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api } from '../api';
import { Link } from '../router';
import { ErrorNote, InputField, submitHandler, useAction } from '../ui';
import { AuthLayout } from './AuthLayout';

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
      <form onSubmit={submitHandler(submit)} className="stack">
        <InputField
          label="E-mail"
          type="email"
          required
          maxLength={FIELD_LIMITS.email}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoComplete="username"
        />
        <InputField
          label="Password"
          type="password"
          required
          maxLength={FIELD_LIMITS.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
        {error && <ErrorNote message={error} />}
        <button type="submit" className="btn primary wide" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
    </AuthLayout>
  );
}
