import { createFocusTrap } from 'focus-trap';
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
  archived: 'gray',
  create: 'green',
  update: 'blue',
  archive: 'amber',
  restore: 'blue',
  delete: 'red',
  revoke: 'red',
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

/**
 * A modal dialog: labelled by its title, Tab kept inside it (focus-trap), Escape and a click beside it
 * close it, and focus goes back to what opened it (or to the page's heading when that is gone).
 */
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
  const titleId = useId();
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const trap = createFocusTrap(box.current!, {
      initialFocus: () => box.current!,
      fallbackFocus: () => box.current!,
      escapeDeactivates: (e) => {
        e.preventDefault();
        close.current();
        return false;
      },
      allowOutsideClick: true,
      setReturnFocus: () =>
        opener?.isConnected ? opener : (document.querySelector<HTMLElement>('main h1') ?? false),
    });
    trap.activate();
    return () => {
      trap.deactivate();
    };
  }, [opener]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the dialog closes it; Escape and the close button do the same for keyboards
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={box}
        tabIndex={-1}
      >
        <div className="modal-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="btn ghost icon" onClick={onClose} aria-label="Close">
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

/**
 * A box that scrolls on its own: a named Tab stop, so a keyboard can reach and scroll it. `live`
 * has what is added to it read out (a conversation).
 */
export function ScrollBox({
  label,
  className,
  live = false,
  children,
}: {
  label: string;
  className: string;
  live?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      className={className}
      aria-label={label}
      aria-live={live ? 'polite' : undefined}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must take focus for arrow keys and Page Down to scroll it
      tabIndex={0}
    >
      {children}
    </section>
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

/** A bar filled to `pct` percent, announced as a progress bar named `label`. */
export function Bar({ label, pct, hot = false }: { label: string; pct: number; hot?: boolean }) {
  return (
    <div
      className="meter-bar"
      role="progressbar"
      aria-label={label}
      aria-valuenow={pct}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className={hot ? 'meter-fill hot' : 'meter-fill'} style={{ width: `${pct}%` }} />
    </div>
  );
}

/** One of a few options as radio buttons under a legend. */
export function Choice<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (v: T) => void;
}) {
  return (
    <fieldset className="field choice-row">
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="row">
          <input type="radio" name={name} checked={value === o.value} onChange={() => onChange(o.value)} />
          {o.label}
        </label>
      ))}
    </fieldset>
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
      <Bar label={label} pct={pct} hot={pct >= 90} />
    </div>
  );
}
