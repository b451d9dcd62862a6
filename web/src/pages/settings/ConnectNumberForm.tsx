import { useState } from 'react';
import { api } from '../../api';
import type { WebhookInfo } from '../../server-types';
import { CopyButton } from '../../ui/CopyButton';
import { ErrorNote } from '../../ui/ErrorNote';
import { InputField } from '../../ui/Field';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

const EMPTY = { phone_number_id: '', business_account_id: '', access_token: '', app_secret: '' };

/**
 * Connects a WhatsApp Cloud API number: Parley checks the token with Meta before keeping anything.
 * Given `number` (the connected one, paused), it asks for a new token for that number, its ids filled in.
 */
export function ConnectNumberForm({
  onConnected,
  number,
}: {
  onConnected: () => void;
  number?: { phone_number_id: string; business_account_id: string };
}) {
  const start = number
    ? { ...EMPTY, phone_number_id: number.phone_number_id, business_account_id: number.business_account_id }
    : EMPTY;
  const [form, setForm] = useState(start);
  const { busy, error, fieldErrors, run } = useAction();
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value.trim() });
  const fieldError = Object.keys(fieldErrors).length > 0;
  return (
    <form
      className="stack"
      onSubmit={submitHandler(() =>
        run(async () => {
          await api('POST', '/number', form);
          setForm(start);
          onConnected();
        }),
      )}
    >
      <h3>{number ? 'Save a new access token' : 'Connect a WhatsApp Cloud API number'}</h3>
      <p className="small muted">
        From your Meta app (developers.facebook.com › your app › WhatsApp › API Setup). Use a system user's
        permanent access token with the whatsapp_business_messaging and whatsapp_business_management
        permissions.
      </p>
      <InputField
        label="Phone number id"
        value={form.phone_number_id}
        onChange={set('phone_number_id')}
        inputMode="numeric"
        required
        error={fieldErrors.phone_number_id}
      />
      <InputField
        label="WhatsApp Business Account id"
        value={form.business_account_id}
        onChange={set('business_account_id')}
        inputMode="numeric"
        required
        error={fieldErrors.business_account_id}
      />
      <InputField
        label="Access token"
        type="password"
        autoComplete="off"
        value={form.access_token}
        onChange={set('access_token')}
        required
        error={fieldErrors.access_token}
      />
      <InputField
        label="App secret"
        type="password"
        autoComplete="off"
        value={form.app_secret}
        onChange={set('app_secret')}
        required
        hint="App settings › Basic: Parley checks each webhook's signature with it."
        error={fieldErrors.app_secret}
      />
      {error && !fieldError && <ErrorNote message={error} />}
      <div>
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? 'Checking with Meta…' : number ? 'Save and resume sending' : 'Connect number'}
        </button>
      </div>
    </form>
  );
}

/** What Meta's app settings need so replies and statuses reach Parley. */
export function WebhookFacts({ webhook }: { webhook: WebhookInfo }) {
  return (
    <>
      <dt>Callback URL</dt>
      <dd className="row wrap">
        <code className="break">{webhook.callback_url}</code>
        <CopyButton value={webhook.callback_url} />
      </dd>
      {webhook.verify_token && (
        <>
          <dt>Verify token</dt>
          <dd className="row wrap">
            <code className="break">{webhook.verify_token}</code>
            <CopyButton value={webhook.verify_token} />
          </dd>
        </>
      )}
    </>
  );
}
