import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_LIMITS } from '../../../src/lib/field-limits';
import { InputField } from '../ui/Field';

/** A password being chosen, held to the server's rule (10 to 200 characters) before it is sent. */
export function NewPasswordField({
  label,
  error,
  value,
  onChange,
}: {
  label: string;
  error?: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation('auth');
  return (
    <InputField
      label={label}
      hint={t('newPasswordHint')}
      error={error}
      type="password"
      required
      minLength={10}
      maxLength={FIELD_LIMITS.password}
      value={value}
      onChange={onChange}
      autoComplete="new-password"
    />
  );
}
