import type { ReactNode } from 'react';

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
