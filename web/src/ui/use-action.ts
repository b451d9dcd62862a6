import { useState } from 'react';
import { ApiFailure } from '../api';

/** Runs an async action with a busy flag and the server's message on failure. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const run = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      return await fn();
    } catch (err) {
      setError((err as Error).message);
      if (err instanceof ApiFailure && err.body.details) {
        setFieldErrors(Object.fromEntries(err.body.details.map((d) => [d.field, d.message])));
      }
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, fieldErrors, run, setError };
}
