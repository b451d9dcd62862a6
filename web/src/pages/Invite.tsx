import { useState } from 'react';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api, useApi } from '../api';
import { navigate } from '../router';
import type { InvitationPreview } from '../server-types';
import { ErrorNote } from '../ui/ErrorNote';
import { InputField } from '../ui/Field';
import { Loading } from '../ui/Loading';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';

export function InvitePage({ token, onDone }: { token: string; onDone: () => Promise<void> }) {
  const inv = useApi<InvitationPreview>(`/invitations/${encodeURIComponent(token)}`);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, fieldErrors, run } = useAction();
  if (inv.loading && !inv.data)
    return (
      <AuthLayout title="Invitation">
        <Loading />
      </AuthLayout>
    );
  if (inv.error || !inv.data) {
    return (
      <AuthLayout title="Invitation">
        <ErrorNote message={inv.error ?? 'Not found'} />
        <p>
          <a href="/">Go to sign in</a>
        </p>
      </AuthLayout>
    );
  }
  const i = inv.data.invitation;
  const submit = () =>
    run(async () => {
      await api('POST', '/invitations/accept', { token, password, ...(i.has_account ? {} : { name }) });
      navigate('/', true);
      await onDone();
    });
  return (
    <AuthLayout
      title={`Join ${i.workspace_name}`}
      subtitle={
        <>
          You were invited as <strong>{i.role}</strong> with {i.email}.
        </>
      }
    >
      <AuthForm
        onSubmit={submit}
        busy={busy}
        error={error}
        submitLabel="Accept invitation"
        busyLabel="Joining…"
      >
        {!i.has_account && (
          <InputField
            label="Your name"
            error={fieldErrors.name}
            maxLength={FIELD_LIMITS.personName}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="name"
          />
        )}
        <InputField
          label={i.has_account ? 'Your password' : 'Choose a password'}
          hint={i.has_account ? 'You already have an account: sign in to join.' : 'At least 10 characters.'}
          error={fieldErrors.password}
          type="password"
          required
          minLength={i.has_account ? 1 : 10}
          maxLength={FIELD_LIMITS.password}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete={i.has_account ? 'current-password' : 'new-password'}
        />
      </AuthForm>
    </AuthLayout>
  );
}
