import { useState } from 'react';
import { Modal } from '../../ui/Modal';
import { INBOX_KEYS, useKeys } from './keys';

/** The button and the `?` key that list the inbox's keys in a dialog. */
export function KeysHelp() {
  const [open, setOpen] = useState(false);
  useKeys({
    '?': () => {
      setOpen(true);
      return true;
    },
  });
  return (
    <>
      <button
        type="button"
        className="btn ghost small"
        aria-haspopup="dialog"
        aria-keyshortcuts="?"
        onClick={() => setOpen(true)}
      >
        Keys
      </button>
      {open && (
        <Modal title="Keyboard shortcuts" onClose={() => setOpen(false)}>
          <dl className="keys-list">
            {INBOX_KEYS.map(({ keys, does }) => (
              <div key={does}>
                <dt>
                  {keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && ' or '}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{does}</dd>
              </div>
            ))}
          </dl>
          <p className="small muted">Keys wait while you type in a field, except Esc and Ctrl + Enter.</p>
        </Modal>
      )}
    </>
  );
}
