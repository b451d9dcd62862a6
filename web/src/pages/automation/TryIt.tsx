import { type FormEvent, useEffect, useState } from 'react';
import { api, useApi } from '../../api';
import { Link } from '../../router';
import type { Conversation, ConversationMessage } from '../../server-types';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { ScrollBox } from '../../ui/ScrollBox';
import { useAction } from '../../ui/use-action';

interface Customer {
  phone: string;
  contact_id: string | null;
  available: boolean;
}

type Choice = { id: string; title: string; description?: string };
type Interactive = {
  type?: string;
  body?: { text?: string };
  action?: {
    button?: string;
    buttons?: { reply?: Choice }[];
    sections?: { title?: string; rows?: Choice[] }[];
  };
};

const REFRESH_MS = 1500;

/** The text a message shows in the chat. */
function textOf(m: ConversationMessage): string {
  const c = m.content as (Interactive & { button_reply?: Choice; list_reply?: Choice }) | null;
  if (c?.button_reply) return c.button_reply.title;
  if (c?.list_reply) return c.list_reply.title;
  if (c?.body?.text) return c.body.text;
  return m.text ?? m.template_body ?? (m.template_name ? `Template ${m.template_name}` : `(${m.type})`);
}

/** The buttons or list rows of a bot's message, each a reply the customer can tap. */
function choicesOf(m: ConversationMessage): { kind: 'button_reply' | 'list_reply'; choice: Choice }[] {
  if (m.direction !== 'outbound' || m.type !== 'interactive') return [];
  const c = m.content as Interactive | null;
  if (c?.type === 'button')
    return (c.action?.buttons ?? []).flatMap((b) =>
      b.reply ? [{ kind: 'button_reply' as const, choice: b.reply }] : [],
    );
  if (c?.type === 'list')
    return (c.action?.sections ?? []).flatMap((s) =>
      (s.rows ?? []).map((r) => ({ kind: 'list_reply' as const, choice: r })),
    );
  return [];
}

/**
 * "Try it": chat with the published bot as a customer. Each message goes to the workspace's number
 * through the built-in simulator, as a customer's would, and the bot's answers come back the same way.
 */
export function TryIt() {
  const customer = useApi<Customer>('/number/simulator/customer');
  const [contactId, setContactId] = useState<string | null>(null);
  const contact = contactId ?? customer.data?.contact_id ?? null;
  const chat = useApi<Conversation>(contact ? `/conversations/${encodeURIComponent(contact)}` : null, {
    refetchInterval: REFRESH_MS,
    staleTime: 0,
  });
  const [text, setText] = useState('');
  const send = useAction();
  const count = chat.data?.messages.length ?? 0;
  // The newest message in sight, as in any chat.
  useEffect(() => {
    const box = document.querySelector('.tryit-messages');
    if (count && box) box.scrollTop = box.scrollHeight;
  }, [count]);

  const post = (body: Record<string, unknown>) =>
    send.run(async () => {
      const r = await api<{ contact_id: string | null }>('POST', '/number/simulator/customer/messages', body);
      if (r.contact_id) setContactId(r.contact_id);
      chat.reload();
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    void post({ text }).then(() => setText(''));
  };

  const c = customer.data;
  return (
    <Card
      title="Try it"
      description="Write as a customer: the message reaches your number through the built-in simulator, and the published bot answers here."
    >
      {!c ? null : !c.available ? (
        <p className="small muted">
          Try it works with the built-in simulator: connect it under{' '}
          <Link href="/settings/number">Settings › Connected number</Link>.
        </p>
      ) : (
        <>
          <p className="small muted">
            You write as the test customer <span className="mono">+{c.phone}</span>. Only published bots
            answer.
          </p>
          <ScrollBox label="Test conversation" className="tryit-messages" live>
            {(chat.data?.messages ?? []).length === 0 ? (
              <p className="small muted">No messages yet.</p>
            ) : (
              <ol className="tryit-list">
                {chat.data!.messages.map((m) => (
                  <li
                    key={m.id}
                    className={`tryit-message ${m.direction === 'inbound' ? 'customer' : 'bot'}`}
                  >
                    <span className="sr-only">{m.direction === 'inbound' ? 'You: ' : 'Bot: '}</span>
                    <span className="tryit-text">{textOf(m)}</span>
                    {choicesOf(m).length > 0 && (
                      <span className="tryit-choices">
                        {choicesOf(m).map(({ kind, choice }) => (
                          <button
                            key={choice.id}
                            type="button"
                            className="btn small"
                            disabled={send.busy}
                            onClick={() => void post({ [kind]: choice })}
                          >
                            {choice.title}
                          </button>
                        ))}
                      </span>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </ScrollBox>
          <form className="row tryit-form" onSubmit={submit}>
            <label className="field grow">
              <span>Message as the customer</span>
              <input value={text} maxLength={4096} onChange={(e) => setText(e.target.value)} />
            </label>
            <button type="submit" className="btn primary" disabled={send.busy || !text.trim()}>
              Send
            </button>
          </form>
        </>
      )}
      {send.error && <ErrorNote message={send.error} />}
    </Card>
  );
}
