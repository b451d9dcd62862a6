import { useEffect, useId, useRef } from 'react';
import { api, useApi } from '../../api';
import { useLiveReload } from '../../live';
import { MemberOptions, useMembers } from '../../members';
import { Link } from '../../router';
import type { Conversation, ConversationState } from '../../server-types';
import { useSession } from '../../session';
import { ErrorNote } from '../../ui/ErrorNote';
import { Loading } from '../../ui/Loading';
import { ScrollBox } from '../../ui/ScrollBox';
import { useAction } from '../../ui/use-action';
import { Thread } from '../messages/Thread';
import { useMarkRead } from '../messages/useMarkRead';
import { Composer } from './Composer';
import { ConversationStatus } from './ConversationStatus';
import { focusComposer, takeReplyWish, useKeys } from './keys';
import { ConversationLabels } from './LabelChips';
import { PresenceNote } from './Presence';
import { SnoozeMenu } from './SnoozeMenu';
import { TeamField } from './TeamField';
import { STATE_LABELS } from './types';

/** One conversation: who has it and its state, the messages with the team's notes, the composer. */
export function ConversationView({ contactId, back }: { contactId: string; back: string }) {
  const conv = useApi<Conversation>(`/conversations/${encodeURIComponent(contactId)}`);
  useLiveReload(['message', 'status', 'conversation', 'note', 'refresh'], conv.reload, 500);
  useMarkRead(contactId, conv.data?.messages);
  const end = useRef<HTMLDivElement>(null);
  const count = (conv.data?.messages.length ?? 0) + (conv.data?.notes.length ?? 0);
  useEffect(() => {
    if (count) end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);
  const drawn = conv.data !== undefined;
  useEffect(() => {
    if (drawn && takeReplyWish(contactId)) focusComposer();
  }, [drawn, contactId]);
  if (conv.loading && !conv.data) return <Loading />;
  if (conv.error && !conv.data) return <ErrorNote message={conv.error} onRetry={conv.reload} />;
  const c = conv.data!;
  const title = c.contact.name || `+${c.contact.phone}`;
  return (
    <div className="conversation" data-conversation={contactId}>
      <header className="conversation-head">
        <Link href={back} className="btn ghost small inbox-back">
          ← Inbox
        </Link>
        <div className="conversation-who">
          <h2 data-page-heading>{title}</h2>
          <p className="small muted">
            +{c.contact.phone} · <Link href={`/contacts/${c.contact.id}`}>Contact details</Link>
          </p>
          <PresenceNote contactId={contactId} />
          <ConversationStatus conv={c} onChanged={conv.reload} />
        </div>
        <Handling contactId={contactId} conv={c} onChanged={conv.reload} />
        <div className="conversation-tags-bar">
          <ConversationLabels contactId={contactId} labels={c.conversation.labels} onChanged={conv.reload} />
          <SnoozeMenu
            contactId={contactId}
            snoozedUntil={c.conversation.snoozed_until}
            untilReply={c.conversation.snoozed_until_reply}
            onChanged={conv.reload}
          />
        </div>
      </header>
      <BotBanner contactId={contactId} conversation={c.conversation} onChanged={conv.reload} />
      <ScrollBox className="thread" label="Messages" live>
        {c.messages.length === 0 && c.notes.length === 0 && (
          <p className="muted center">No messages with this contact yet.</p>
        )}
        <Thread messages={c.messages} notes={c.notes} />
        <div ref={end} />
      </ScrollBox>
      <Composer conv={c} onSent={conv.reload} />
    </div>
  );
}

/** The assignee and the state: changed by anyone in the team, seen by the others live. */
function Handling({
  contactId,
  conv,
  onChanged,
}: {
  contactId: string;
  conv: Conversation;
  onChanged: () => void;
}) {
  const members = useMembers();
  const me = useSession().session.user.id;
  const { busy, error, run } = useAction();
  const ids = useId();
  const change = (body: { state?: ConversationState; assignee_id?: string | null }) =>
    run(async () => {
      await api('PATCH', `/conversations/${encodeURIComponent(contactId)}`, body);
      onChanged();
    });
  const { state, assignee_id } = conv.conversation;
  const toggle = { state: state === 'resolved' ? ('open' as const) : ('resolved' as const) };
  useKeys({
    a: () => {
      document.getElementById(`${ids}-assignee`)?.focus();
      return true;
    },
    i: () => {
      if (assignee_id !== me) void change({ assignee_id: me });
      return true;
    },
    e: () => {
      void change(toggle);
      return true;
    },
  });
  return (
    <div className="conversation-handling">
      <TeamField contactId={contactId} conversation={conv.conversation} onChanged={onChanged} />
      <div className="inline-field">
        <label htmlFor={`${ids}-assignee`} className="small muted">
          Assigned to
        </label>
        <select
          id={`${ids}-assignee`}
          value={assignee_id ?? ''}
          disabled={busy}
          onChange={(e) => void change({ assignee_id: e.target.value || null })}
        >
          <option value="">Nobody</option>
          <MemberOptions members={members} current={assignee_id} name={conv.conversation.assignee_name} />
        </select>
      </div>
      <div className="inline-field">
        <label htmlFor={`${ids}-state`} className="small muted">
          State
        </label>
        <select
          id={`${ids}-state`}
          value={state}
          disabled={busy}
          onChange={(e) => void change({ state: e.target.value as ConversationState })}
        >
          {(Object.keys(STATE_LABELS) as ConversationState[]).map((s) => (
            <option key={s} value={s}>
              {STATE_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className="btn small" disabled={busy} onClick={() => void change(toggle)}>
        {state === 'resolved' ? 'Reopen' : 'Resolve'}
      </button>
      {error && <ErrorNote message={error} />}
    </div>
  );
}

/** Which bot holds the conversation (taking over from it), or which one waits to be handed it back. */
function BotBanner({
  contactId,
  conversation,
  onChanged,
}: {
  contactId: string;
  conversation: Conversation['conversation'];
  onChanged: () => void;
}) {
  const { busy, error, run } = useAction();
  const { bot, bot_waiting: waiting } = conversation;
  if (!bot && !waiting) return null;
  const act = (what: 'stop' | 'resume') =>
    run(async () => {
      await api('POST', `/conversations/${encodeURIComponent(contactId)}/bot/${what}`);
      onChanged();
    });
  return (
    <div className="bot-answering" role="status">
      {bot ? (
        <span>
          The bot <strong>{bot.name}</strong> is answering
          {bot.waiting_for_answer ? ' and waits for the customer’s reply' : ''}. Replying takes over.
        </span>
      ) : (
        <span>
          The bot <strong>{waiting!.name}</strong> handed this conversation to the team. Hand it back when you
          are done.
        </span>
      )}
      <button
        type="button"
        className="btn small"
        disabled={busy}
        onClick={() => void act(bot ? 'stop' : 'resume')}
      >
        {bot ? 'Stop the bot' : 'Hand back to the bot'}
      </button>
      {error && <ErrorNote message={error} />}
    </div>
  );
}
