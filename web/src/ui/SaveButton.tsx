import type { ReactNode } from 'react';

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
