import {
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { ApiFailure } from './api';

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p className="muted">{description}</p>}
      </div>
      {actions && <div className="actions">{actions}</div>}
    </header>
  );
}

export function Card({
  title,
  description,
  actions,
  children,
}: {
  title?: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card">
      {(title || actions) && (
        <div className="card-head">
          <div>
            {title && <h2>{title}</h2>}
            {description && <p className="muted small">{description}</p>}
          </div>
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}…
    </div>
  );
}

export function ErrorNote({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="error-note" role="alert">
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="btn small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({
  icon = '✦',
  title,
  children,
  action,
}: {
  icon?: string;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="empty">
      <div className="empty-icon" aria-hidden="true">
        {icon}
      </div>
      <h3>{title}</h3>
      {children && <p className="muted">{children}</p>}
      {action}
    </div>
  );
}

const BADGE_TONES: Record<string, string> = {
  approved: 'green',
  delivered: 'green',
  read: 'green',
  active: 'green',
  connected: 'green',
  published: 'green',
  succeeded: 'green',
  completed: 'green',
  won: 'green',
  accepted: 'blue',
  sent: 'blue',
  new: 'blue',
  running: 'blue',
  queued: 'gray',
  pending: 'amber',
  waiting: 'amber',
  contacted: 'amber',
  draft: 'gray',
  inactive: 'gray',
  failed: 'red',
  rejected: 'red',
  revoked: 'red',
  lost: 'red',
  paused: 'amber',
  disabled: 'gray',
  owner: 'violet',
  admin: 'blue',
  member: 'gray',
  inbound: 'violet',
  outbound: 'gray',
};

export function Badge({ children, tone }: { children: string; tone?: string }) {
  return <span className={`badge ${tone ?? BADGE_TONES[children.toLowerCase()] ?? 'gray'}`}>{children}</span>;
}

/** Copies `value`; says so for two seconds. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(false), 2000);
    return () => clearTimeout(t);
  }, [done]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const area = document.createElement('textarea');
      area.value = value;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
  };
  return (
    <button
      type="button"
      className="btn small"
      onClick={copy}
      aria-label={`${label}: ${done ? 'copied' : 'copy to clipboard'}`}
    >
      {done ? '✓ Copied' : label}
    </button>
  );
}

/** A secret or snippet shown in full, with a copy button. */
export function Secret({ value, note }: { value: string; note?: ReactNode }) {
  return (
    <div className="secret">
      <code>{value}</code>
      <CopyButton value={value} />
      {note && <p className="small muted secret-note">{note}</p>}
    </div>
  );
}

export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint && !error && <p className="hint">{hint}</p>}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

/** A Field holding a plain input; every other prop goes to the input. */
export function InputField({
  label,
  hint,
  error,
  ...input
}: { label: string; hint?: ReactNode; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id) => <input id={id} {...input} />}
    </Field>
  );
}

/** Runs an async action with a busy flag and the server's message on failure. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const run = async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
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

export function submitHandler(fn: () => void) {
  return (e: FormEvent) => {
    e.preventDefault();
    fn();
  };
}

/** A form's submit button, with "Saved" beside it once the form has been saved. */
export function SaveButton({
  busy,
  saved,
  children,
}: {
  busy: boolean;
  saved: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <button type="submit" className="btn primary" disabled={busy}>
        {children}
      </button>
      {saved && (
        <span className="small success" role="status">
          Saved
        </span>
      )}
    </>
  );
}

export function Modal({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  // Keyboard users land in the dialog, and back where they were when it closes.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    box.current?.focus();
    return () => before?.focus?.();
  }, []);
  useEffect(() => {
    const key = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, [onClose]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the dialog closes it; Escape and the close button do the same for keyboards
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-label={title} ref={box} tabIndex={-1}>
        <div className="modal-head">
          <h2>{title}</h2>
          <button type="button" className="btn ghost icon" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
}: {
  tabs: { id: T; label: string }[];
  value: T;
  onChange: (t: T) => void;
}) {
  return (
    <div className="tabs" role="tablist">
      {tabs.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          aria-selected={t.id === value}
          className={t.id === value ? 'tab active' : 'tab'}
          onClick={() => onChange(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

export function Meter({ label, used, limit }: { label: string; used: number; limit: number }) {
  const pct = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  return (
    <div className="meter">
      <div className="meter-top">
        <span>{label}</span>
        <span className="muted">
          <strong>{used.toLocaleString()}</strong> of {limit.toLocaleString()}
        </span>
      </div>
      <div
        className="meter-bar"
        role="progressbar"
        aria-label={label}
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className={pct >= 90 ? 'meter-fill hot' : 'meter-fill'} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
