import type { ConversationMessage } from '../../server-types';
import { QuickReply, ReceivedInteractive, SentInteractive } from './InteractiveContent';
import { MediaContent } from './MediaContent';
import { ContactsContent, LocationContent } from './PlaceContent';
import { TemplateContent } from './TemplateContent';
import { isObject, type Json, list, str } from './types';

const MEDIA = new Set(['image', 'video', 'audio', 'document', 'sticker']);

/** What one message says, drawn by its type from the content the server keeps. */
export function MessageBody({ m }: { m: ConversationMessage }) {
  const c = m.content ?? {};
  if (m.content_removed_at) return <ContentRemoved m={m} />;
  if (m.type === 'template') return <TemplateContent m={m} />;
  if (m.type === 'text') return <div className="pre">{m.text ?? str(c.body)}</div>;
  if (MEDIA.has(m.type))
    return (
      <MediaContent
        messageId={m.id}
        kind={m.type}
        media={c}
        download={{ status: m.media_status, size: m.media_size }}
      />
    );
  if (m.type === 'location') return <LocationContent location={c} />;
  if (m.type === 'contacts') return <ContactsContent contacts={list(c.contacts)} />;
  if (m.type === 'interactive')
    return m.direction === 'outbound' ? (
      <SentInteractive messageId={m.id} content={c} />
    ) : (
      <ReceivedInteractive content={c} />
    );
  if (m.type === 'button') return <QuickReply content={c} />;
  if (m.type === 'reaction') return <ReactionLine m={m} />;
  if (m.type === 'unsupported' || list(c.errors).length > 0) return <Unsupported errors={list(c.errors)} />;
  return (
    <div className="muted">
      A message of type <code>{m.type}</code>, which Parley keeps but cannot show yet.
      {m.text && <div className="pre">{m.text}</div>}
    </div>
  );
}

/** A reaction whose message is not on this page: said as a line of its own. */
function ReactionLine({ m }: { m: ConversationMessage }) {
  const emoji = str(m.content?.emoji);
  const who = m.direction === 'inbound' ? 'Reacted' : 'You reacted';
  return (
    <div className="muted">
      {emoji ? (
        <>
          {who} <span className="reaction-emoji">{emoji}</span> to an earlier message not shown here.
        </>
      ) : (
        `${m.direction === 'inbound' ? 'Removed a reaction' : 'You removed a reaction'} from an earlier message.`
      )}
    </div>
  );
}

/** A message WhatsApp could not hand over (a type the Cloud API does not support, such as a poll). */
function Unsupported({ errors }: { errors: Json[] }) {
  const first = errors[0];
  const reason = str(isObject(first?.error_data) ? first.error_data.details : undefined) ?? str(first?.title);
  return (
    <div className="muted">
      The customer sent something WhatsApp does not pass on to business apps (such as a poll, or a message
      type that is new); they can see it in their chat, but Parley cannot.
      {reason && <div className="small">WhatsApp says: {reason}</div>}
    </div>
  );
}

/** A message whose content data retention removed: the row stays, what it said is gone. */
function ContentRemoved({ m }: { m: ConversationMessage }) {
  const what = m.type === 'template' && m.template_name ? `Template ${m.template_name}` : 'Message';
  return (
    <div className="muted">
      {what}: content removed, as it was older than this workspace keeps message content (Settings › General ›
      Data retention).
    </div>
  );
}
