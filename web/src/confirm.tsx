import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from './api';
import { ErrorNote } from './ui/ErrorNote';
import { Modal } from './ui/Modal';
import { useAction } from './ui/use-action';

/** A button that asks first: a dialog saying what will happen, with Cancel and the confirming button. */
export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel,
  danger = false,
  small = false,
  onConfirm,
}: {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  small?: boolean;
  onConfirm: () => Promise<unknown>;
}) {
  const { t } = useTranslation('ui');
  const [open, setOpen] = useState(false);
  const action = useAction();
  const confirm = () =>
    action.run(async () => {
      await onConfirm();
      setOpen(false);
    });
  return (
    <>
      <button
        type="button"
        className={`btn${small ? ' small' : ''}${danger ? ' danger' : ''}`}
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
      >
        {label}
      </button>
      {open && (
        <Modal title={title} onClose={() => setOpen(false)}>
          <div className="stack">
            <div>{children}</div>
            {action.error && <ErrorNote message={action.error} />}
            <div className="row">
              <button type="button" className="btn" onClick={() => setOpen(false)}>
                {t('cancel')}
              </button>
              <button
                type="button"
                className={`btn ${danger ? 'danger' : 'primary'}`}
                disabled={action.busy}
                onClick={confirm}
              >
                {confirmLabel}
              </button>
            </div>
          </div>
        </Modal>
      )}
    </>
  );
}

/** "Show archived": lists show either the archived things or the others. */
export function ArchivedToggle({ value, onChange }: { value: boolean; onChange: (v: boolean) => void }) {
  const { t } = useTranslation('ui');
  return (
    <label className="switch">
      <input type="checkbox" checked={value} onChange={(e) => onChange(e.target.checked)} />
      <span>{t('archive.showArchived')}</span>
    </label>
  );
}

/** What can be archived: the confirmation names it, each language with its own words and grammar. */
type Archivable = 'form' | 'template' | 'lead' | 'flow' | 'sequence';

/**
 * Archive (after a confirmation saying what stops) or restore one thing through
 * `POST {base}/{id}/archive|restore`.
 */
export function ArchiveButton({
  base,
  id,
  archived,
  what,
  effect,
  onDone,
  small = false,
}: {
  base: string;
  id: string;
  archived: boolean;
  what: Archivable;
  effect: string;
  onDone: () => void;
  small?: boolean;
}) {
  const { t } = useTranslation('ui');
  const restore = useAction();
  const path = `${base}/${encodeURIComponent(id)}`;
  if (archived)
    return (
      <>
        <button
          type="button"
          className={`btn${small ? ' small' : ''}`}
          disabled={restore.busy}
          onClick={(e) => {
            e.stopPropagation();
            restore.run(async () => {
              await api('POST', `${path}/restore`);
              onDone();
            });
          }}
        >
          {t('archive.restore')}
        </button>
        {restore.error && <ErrorNote message={restore.error} />}
      </>
    );
  return (
    <ConfirmButton
      label={t('archive.archive')}
      small={small}
      title={t('archive.title', { what })}
      confirmLabel={t('archive.confirm', { what })}
      onConfirm={async () => {
        await api('POST', `${path}/archive`);
        onDone();
      }}
    >
      <p>
        {effect} {t('archive.leavesList')}
      </p>
    </ConfirmButton>
  );
}
