import { useEffect, useRef, useState } from 'react';

// The system's own emoji (no image set to load, nothing from a CDN the page's CSP would refuse).
const EMOJI = [
  ['😀', 'grinning face'],
  ['😂', 'tears of joy'],
  ['😊', 'smiling face'],
  ['😍', 'heart eyes'],
  ['😉', 'wink'],
  ['🤔', 'thinking'],
  ['😅', 'sweat smile'],
  ['😢', 'crying'],
  ['🙏', 'folded hands'],
  ['👍', 'thumbs up'],
  ['👌', 'OK hand'],
  ['👋', 'waving hand'],
  ['👏', 'clapping'],
  ['💪', 'flexed biceps'],
  ['❤️', 'red heart'],
  ['🎉', 'party popper'],
  ['✅', 'check mark'],
  ['❌', 'cross mark'],
  ['⭐', 'star'],
  ['🔥', 'fire'],
  ['📦', 'package'],
  ['🚚', 'delivery truck'],
  ['🕒', 'clock'],
  ['📅', 'calendar'],
  ['📍', 'pin'],
  ['📞', 'telephone'],
  ['💬', 'speech balloon'],
  ['🛒', 'shopping cart'],
  ['💳', 'credit card'],
  ['🎁', 'gift'],
] as const;

/** A button that opens a small grid of emoji; the one picked goes where the cursor was. */
export function EmojiPicker({ onPick }: { onPick: (emoji: string) => void }) {
  const [open, setOpen] = useState(false);
  const grid = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    if (!open) return;
    grid.current?.querySelector('button')?.focus();
    const close = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [open]);
  return (
    <span className="emoji-picker">
      <button
        type="button"
        className="btn small ghost"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen(!open)}
      >
        😊 Emoji
      </button>
      {open && (
        <fieldset className="emoji-grid" ref={grid}>
          <legend className="sr-only">Emoji</legend>
          {EMOJI.map(([emoji, name]) => (
            <button
              key={emoji}
              type="button"
              className="emoji"
              aria-label={name}
              title={name}
              onClick={() => {
                onPick(emoji);
                setOpen(false);
              }}
            >
              {emoji}
            </button>
          ))}
        </fieldset>
      )}
    </span>
  );
}
