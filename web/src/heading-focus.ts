import { useEffect, useRef } from 'react';

/** How long a page may take to draw its heading (its code and data loading) before we give up. */
const WAIT_MS = 5000;

/**
 * After a navigation (not the first page drawn), moves focus to the new page's visible h1 in `main`, so a
 * keyboard or screen-reader user starts at the page they opened rather than on the link they left.
 * Focus already inside the page (a tab that changes the address, a field) is left where it is.
 */
export function useHeadingFocusOnNavigate(path: string): void {
  const last = useRef<string | null>(null);
  useEffect(() => {
    const firstPage = last.current === null;
    if (last.current === path) return;
    last.current = path;
    if (firstPage) return;
    const main = document.querySelector('main');
    if (!main) return;
    const focusHeading = (): boolean => {
      const active = document.activeElement;
      // The page left behind may still be in the DOM, hidden, while the new one loads.
      if (active && active !== main && main.contains(active) && active.checkVisibility()) return true;
      // A layout may hide the page's h1 (the inbox on a phone, a conversation open): then its
      // visible stand-in, marked data-page-heading, names the page.
      const h1 = [...main.querySelectorAll<HTMLElement>('h1, [data-page-heading]')].find((h) =>
        h.checkVisibility(),
      );
      if (!h1) return false;
      h1.tabIndex = -1;
      h1.focus({ preventScroll: true });
      return document.activeElement === h1;
    };
    if (focusHeading()) return;
    const watch = new MutationObserver(() => focusHeading() && stop());
    const timer = setTimeout(() => stop(), WAIT_MS);
    const stop = () => {
      watch.disconnect();
      clearTimeout(timer);
    };
    watch.observe(main, { childList: true, subtree: true });
    return stop;
  }, [path]);
}
