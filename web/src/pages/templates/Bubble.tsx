import { useState } from 'react';
import type { BubbleModel } from './types';

const MEDIA_ICON: Record<string, string> = { IMAGE: '▧', VIDEO: '▶', DOCUMENT: '▤', LOCATION: '⌖' };
const BUTTON_ICON: Record<string, string> = {
  URL: '↗',
  PHONE_NUMBER: '✆',
  COPY_CODE: '⧉',
  OTP: '⧉',
  QUICK_REPLY: '↩',
};

/** WhatsApp's *bold*, as the phone shows it. */
function Formatted({ text }: { text: string }) {
  const parts = text.split(/(\*[^*\n]+\*)/g);
  return (
    <>
      {parts.map((p, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in a fixed order
        /^\*[^*\n]+\*$/.test(p) ? <strong key={i}>{p.slice(1, -1)}</strong> : <span key={i}>{p}</span>,
      )}
    </>
  );
}

function MediaHeader({ format, media }: { format: string; media?: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  if (format === 'IMAGE' && media && /^(https?|blob):/.test(media) && broken !== media)
    return <img className="wa-media" src={media} alt="Header" onError={() => setBroken(media)} />;
  return (
    <div className="wa-media placeholder" role="img" aria-label={`${format.toLowerCase()} header`}>
      <span aria-hidden="true">{MEDIA_ICON[format] ?? '▢'}</span> {format.toLowerCase()}
    </div>
  );
}

/** A template message as the customer's phone shows it: header, body, footer, then the buttons. */
export function Bubble({ model, label = 'Preview' }: { model: BubbleModel; label?: string }) {
  const { header, body, footer, buttons } = model;
  return (
    <figure className="wa-preview" aria-label={label}>
      <div className="wa-bubble" data-testid="bubble">
        {header?.format === 'TEXT'
          ? header.text && <div className="wa-header">{header.text}</div>
          : header && <MediaHeader format={header.format} media={header.media} />}
        <div className="wa-body pre">
          {body ? <Formatted text={body} /> : <span className="muted">Body text</span>}
        </div>
        {footer && <div className="wa-footer">{footer}</div>}
      </div>
      {buttons.length > 0 && (
        <ul className="wa-buttons">
          {buttons.map((b, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: buttons are shown in their template order
            <li key={i}>
              <span aria-hidden="true">{BUTTON_ICON[b.type] ?? '•'}</span> {b.text || 'Button'}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
