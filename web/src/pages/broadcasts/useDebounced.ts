import { useEffect, useState } from 'react';
import { api } from '../../api';

/**
 * POSTs `body` to `path` once it has stayed the same for a moment (typing does not send a request per
 * key), dropping answers to bodies since replaced; `null` asks nothing.
 */
export function useDebouncedPost<T>(path: string, body: unknown | null, ms = 350) {
  const key = body === null ? null : JSON.stringify(body);
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: false,
  });
  useEffect(() => {
    if (key === null) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(() => {
      api<T>('POST', path, JSON.parse(key)).then(
        (data) => live && setState({ data, error: null, loading: false }),
        (err: Error) => live && setState({ data: null, error: err.message, loading: false }),
      );
    }, ms);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, key, ms]);
  return state;
}
