import { createFocusTrap } from 'focus-trap';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

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
  const { t } = useTranslation('ui');
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
          <button type="button" className="btn ghost icon" onClick={onClose} aria-label={t('close')}>
            ✕
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
