import type { ReactNode } from 'react';

/**
 * A part of the app not yet in the catalogs (issue 34 converts it page by page): marked English and
 * left to right, so a screen reader reads it as English and it is not mirrored in Arabic. Its box
 * does not exist for layout (display: contents). Goes away as the last page is converted.
 */
export function Untranslated({ children }: { children: ReactNode }) {
  return (
    <div className="untranslated" lang="en" dir="ltr">
      {children}
    </div>
  );
}
