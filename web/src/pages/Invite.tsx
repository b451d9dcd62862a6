import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { api, useApi } from '../api';
import { withElements } from '../i18n/with-elements';
import { navigate } from '../router';
import type { InvitationPreview } from '../server-types';
import { ErrorNote } from '../ui/ErrorNote';
import { InputField } from '../ui/Field';
import { Loading } from '../ui/Loading';
import { useAction } from '../ui/use-action';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';

export function InvitePage({ token, onDone }: { token: string; onDone: () => Promise<void> }) {
  const { t } = useTranslation('auth');
  const inv = useApi<InvitationPreview>(`/invitations/${encodeURIComponent(token)}`);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, fieldErrors, run } = useAction();
  if (inv.loading && !inv.data)
    return (
      <AuthLayout title={t('invite.title')}>
        <Loading />
      </AuthLayout>
    );
  if (inv.error || !inv.data) {
    return (
      <AuthLayout title={t('invite.title')}>
        <ErrorNote message={inv.error ?? t('invite.notFound')} />
        <p>
          <a href="/">{t('invite.goToSignIn')}</a>
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
      title={t('invite.join', { workspace: i.workspace_name })}
      subtitle={withElements((values) => t('invite.invitedAs', { role: values.role, email: values.email }), {
        role: <strong>{t(`role.${i.role}`, { ns: 'shell' })}</strong>,
        email: <bdi>{i.email}</bdi>,
      })}
    >
      <AuthForm
        onSubmit={submit}
        busy={busy}
        error={error}
        submitLabel={t('invite.submit')}
        busyLabel={t('invite.busy')}
      >
        {!i.has_account && (
          <InputField
            label={t('yourName')}
            error={fieldErrors.name}
            maxLength={FIELD_LIMITS.personName}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="name"
          />
        )}
        <InputField
          label={i.has_account ? t('invite.yourPassword') : t('invite.choosePassword')}
          hint={i.has_account ? t('invite.hasAccount') : t('newPasswordHint')}
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
