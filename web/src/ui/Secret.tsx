import type { ReactNode } from 'react';
import { CopyButton } from './CopyButton';

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
