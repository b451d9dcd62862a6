import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import type { Conversation } from '../../server-types';
import { Badge } from '../../ui/Badge';
import { useAction } from '../../ui/use-action';
import { SendTemplate } from '../messages/SendTemplate';

type Contact = Conversation['contact'];

const WHEN = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** How the contact opted out, in the words of the header. */
function how(c: Contact): string {
  switch (c.opt_out_source) {
    case 'keyword':
      return c.opt_out_keyword ? `wrote ${c.opt_out_keyword}` : 'wrote a stop word';
    case 'payload':
      return 'tapped a stop button';
    case 'whatsapp':
      return 'via WhatsApp’s marketing preference';
    case 'api':
      return 'through the API';
    case 'app':
      return 'marked by a teammate';
    default:
      return '';
  }
}

/** "5 h 12 min" from milliseconds. */
function timeLeft(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${h} h ${minutes % 60} min` : `${minutes} min`;
}

/** The time now, again every half minute. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The contact's consent (when and how they opted out, with the way back in) and the 24-hour window's
 * time left, with the template to send once it is closed.
 */
export function ConversationStatus({ conv, onChanged }: { conv: Conversation; onChanged: () => void }) {
  const now = useNow();
  const { busy, error, run } = useAction();
  const [template, setTemplate] = useState(false);
  const c = conv.contact;
  const closesAt = conv.window.closes_at ? Date.parse(conv.window.closes_at) : null;
  const open = closesAt !== null && closesAt > now;
  // The server said open and the clock ran out since: the composer learns it from the server, once.
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (!conv.window.open || open || asked.current === conv.window.closes_at) return;
    asked.current = conv.window.closes_at;
    onChanged();
  }, [conv.window, open, onChanged]);
  const optIn = () =>
    run(async () => {
      await api('PUT', `/contacts/${encodeURIComponent(c.id)}/opt-out`, { opted_out: false });
      onChanged();
    });
  return (
    <div className="conversation-status small">
      <span className="window-clock">
        {open
          ? `Window closes in ${timeLeft(closesAt - now)}`
          : closesAt === null
            ? 'No message from the customer yet: only templates'
            : 'Window closed: only templates'}
      </span>
      {!open && conv.number_connected && (
        <button
          type="button"
          className="btn ghost small"
          aria-haspopup="dialog"
          onClick={() => setTemplate(true)}
        >
          Send a template
        </button>
      )}
      {c.opted_out ? (
        <span className="consent">
          <Badge tone="red">Opted out</Badge>{' '}
          <span>
            {[c.opted_out_at ? WHEN.format(new Date(c.opted_out_at)) : '', how(c)]
              .filter(Boolean)
              .join(' — ')}
          </span>{' '}
          <button type="button" className="btn ghost small" disabled={busy} onClick={() => void optIn()}>
            Opt back in
          </button>
          {error && <span className="field-error">{error}</span>}
        </span>
      ) : (
        <span className="consent muted">Opted in to marketing</span>
      )}
      {template && (
        <SendTemplate
          path={`/conversations/${encodeURIComponent(c.id)}/messages`}
          onClose={() => setTemplate(false)}
          onSent={() => {
            setTemplate(false);
            onChanged();
          }}
        />
      )}
    </div>
  );
}
