import { useEffect, useRef, useState } from 'react';
import { api, formatDate, timeAgo, useApi } from '../api';
import { ListTable, PAGE } from '../list';
import { Link, navigate, useLocation } from '../router';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader, submitHandler, useAction } from '../ui';
import { SendTemplate } from './messages/SendTemplate';
import { Thread } from './messages/Thread';
import type { ConversationMessage } from './messages/types';
import { useMarkRead } from './messages/useMarkRead';

interface Message {
  id: string;
  direction: 'inbound' | 'outbound';
  contact_id: string;
  contact_name?: string | null;
  phone: string;
  type: string;
  template_name: string | null;
  template_values: string[] | null;
  text: string | null;
  status: string;
  error_code: number | null;
  error_reason: string | null;
  created_at: string;
}

const STATUSES = ['queued', 'accepted', 'sent', 'delivered', 'read', 'failed'];

const summary = (m: Message) =>
  m.type === 'template' ? `Template ${m.template_name}` : (m.text ?? `(${m.type})`);

export function MessagesPage() {
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const params = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  if (status) params.set('status', status);
  const list = useApi<{ messages: Message[]; has_next_page: boolean }>(`/messages?${params}`);
  const go = (s: string, o = 0) =>
    navigate(
      `/messages?${new URLSearchParams({ ...(s ? { status: s } : {}), ...(o ? { offset: String(o) } : {}) })}`,
    );
  return (
    <>
      <PageHeader
        title="Messages"
        description="Every message sent and received, newest first. Open one to see the conversation and reply."
      />
      <div className="toolbar">
        <fieldset className="segmented">
          <legend className="sr-only">Filter by status</legend>
          {['', ...STATUSES].map((s) => (
            <button
              key={s || 'all'}
              type="button"
              className={s === status ? 'seg active' : 'seg'}
              aria-pressed={s === status}
              onClick={() => go(s)}
            >
              {s || 'All'}
            </button>
          ))}
        </fieldset>
      </div>
      <Card>
        <ListTable
          list={list}
          items={list.data?.messages}
          empty={
            status ? (
              <Empty icon="✉" title={`No ${status} messages`} />
            ) : (
              <Empty icon="✉" title="No messages yet">
                Send one with <code>POST /api/v1/messages</code> using an approved template from{' '}
                <Link href="/templates">Templates</Link>, or wait for a customer to write in.
              </Empty>
            )
          }
          head={
            <>
              <th>Contact</th>
              <th>Message</th>
              <th>Status</th>
              <th className="hide-sm">When</th>
            </>
          }
          row={(m) => (
            <tr key={m.id} className="clickable" onClick={() => navigate(`/messages/${m.contact_id}`)}>
              <td>
                <Link href={`/messages/${m.contact_id}`} className="strong-link">
                  {m.contact_name || `+${m.phone}`}
                </Link>
                <div className="small muted">{m.direction === 'inbound' ? '← received' : '→ sent'}</div>
              </td>
              <td className="truncate">{summary(m)}</td>
              <td>
                <Badge>{m.status}</Badge>
                {m.error_code && <div className="small muted">{m.error_code}</div>}
              </td>
              <td className="muted hide-sm">{timeAgo(m.created_at)}</td>
            </tr>
          )}
          page={{ offset, hasNext: list.data?.has_next_page ?? false, onGo: (o) => go(status, o) }}
        />
      </Card>
    </>
  );
}

interface Conversation {
  contact: { id: string; phone: string; name: string | null; email: string | null };
  messages: ConversationMessage[];
  number_connected: boolean;
  window: { open: boolean; closes_at: string | null };
}

export function ConversationPage({ contactId }: { contactId: string }) {
  const conv = useApi<Conversation>(`/conversations/${encodeURIComponent(contactId)}`);
  const end = useRef<HTMLDivElement>(null);
  // Statuses move on (sent, delivered, read) and replies arrive: look again every few seconds.
  useEffect(() => {
    const t = setInterval(conv.reload, 5000);
    return () => clearInterval(t);
  }, [conv.reload]);
  useMarkRead(contactId, conv.data?.messages);
  const count = conv.data?.messages.length ?? 0;
  useEffect(() => {
    if (count) end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);
  if (conv.loading && !conv.data) return <Loading />;
  if (conv.error && !conv.data) return <ErrorNote message={conv.error} onRetry={conv.reload} />;
  const c = conv.data!;
  return (
    <>
      <PageHeader
        title={c.contact.name || `+${c.contact.phone}`}
        description={
          <>
            <Link href="/messages">Messages</Link> / +{c.contact.phone}
          </>
        }
        actions={
          <Link href={`/contacts/${c.contact.id}`} className="btn">
            Contact details
          </Link>
        }
      />
      <Card>
        <div className="thread" aria-live="polite">
          {c.messages.length === 0 && <p className="muted center">No messages with this contact yet.</p>}
          <Thread messages={c.messages} />
          <div ref={end} />
        </div>
        <Composer conv={c} onSent={conv.reload} />
      </Card>
    </>
  );
}

function Composer({ conv, onSent }: { conv: Conversation; onSent: () => void }) {
  const [text, setText] = useState('');
  const { busy, error, run } = useAction();
  const [showTemplates, setShowTemplates] = useState(false);
  const path = `/conversations/${conv.contact.id}/messages`;
  if (!conv.number_connected) {
    return (
      <div className="composer-note">
        Connect a WhatsApp number in <Link href="/settings/number">Settings › Connected number</Link> to send
        messages.
      </div>
    );
  }
  const send = () =>
    run(async () => {
      await api('POST', path, { text });
      setText('');
      onSent();
    });
  return (
    <div className="composer">
      {conv.window.open ? (
        <form className="composer-form" onSubmit={submitHandler(send)}>
          <label htmlFor="reply" className="sr-only">
            Reply
          </label>
          <textarea
            id="reply"
            rows={2}
            maxLength={4096}
            placeholder="Write a reply…"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && text.trim()) {
                e.preventDefault();
                send();
              }
            }}
          />
          <button type="submit" className="btn primary" disabled={busy || !text.trim()}>
            Send
          </button>
        </form>
      ) : (
        <div className="composer-note" role="note">
          <strong>Free text is closed.</strong> WhatsApp allows free text only within 24 hours of the
          customer's last message
          {conv.window.closes_at
            ? ` (the window closed ${formatDate(conv.window.closes_at)})`
            : ' (this contact has not written in)'}
          . Send an approved template instead.
        </div>
      )}
      {conv.window.open && conv.window.closes_at && (
        <p className="small muted">Window open until {formatDate(conv.window.closes_at)}.</p>
      )}
      {error && <ErrorNote message={error} />}
      <button
        type="button"
        className="btn small ghost"
        onClick={() => setShowTemplates(true)}
        aria-haspopup="dialog"
      >
        Send a template
      </button>
      {showTemplates && (
        <SendTemplate
          path={path}
          onClose={() => setShowTemplates(false)}
          onSent={() => {
            setShowTemplates(false);
            onSent();
          }}
        />
      )}
    </div>
  );
}
