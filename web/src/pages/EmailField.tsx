import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { InputField } from '../ui/Field';

/** The e-mail address of a signed-out page, held to the server's length before it is sent. */
export function EmailField({
  error,
  value,
  onChange,
  autoComplete = 'username',
}: {
  error?: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  /** `username` where it names an existing account (password managers fill it), `email` for a new one. */
  autoComplete?: 'username' | 'email';
}) {
  const { t } = useTranslation('auth');
  return (
    <InputField
      label={t('email')}
      type="email"
      required
      maxLength={FIELD_LIMITS.email}
      error={error}
      value={value}
      onChange={onChange}
      autoComplete={autoComplete}
    />
  );
}
