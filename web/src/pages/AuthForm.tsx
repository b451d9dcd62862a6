import type { ReactNode } from 'react';
import { ErrorNote } from '../ui/ErrorNote';
import { submitHandler } from '../ui/submit-handler';

/** A signed-out page's form: its fields, the server's refusal under them, one wide submit button. */
export function AuthForm({
  onSubmit,
  busy,
  error,
  submitLabel,
  busyLabel,
  children,
}: {
  onSubmit: () => void;
  busy: boolean;
  error: string | null;
  submitLabel: string;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <form onSubmit={submitHandler(onSubmit)} className="stack">
      {children}
      {error && <ErrorNote message={error} />}
      <button type="submit" className="btn primary wide" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
