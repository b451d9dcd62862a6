import { formatDate } from '../../api';
import type { ConversationMessage } from '../../server-types';
import { MessageBody } from './MessageBody';
import { isObject, type Json, str } from './types';

export interface Reactions {
  inbound?: string;
  outbound?: string;
}

/** One message of the conversation: what it answers, how it came, what it says, reactions to it, its status. */
export function MessageBubble({ m, reactions }: { m: ConversationMessage; reactions?: Reactions }) {
  const ctx = m.context ?? {};
  const product = isObject(ctx.referred_product) ? ctx.referred_product : undefined;
  return (
    <div className={`bubble-row ${m.direction}`}>
      <div className={`bubble ${m.direction}`}>
        {/* A catalog question names the product, not the catalog message Parley never had. */}
        {m.type !== 'reaction' && m.context_wamid && !(product && !m.quoted) && <Quote m={m} />}
        {(ctx.frequently_forwarded === true || ctx.forwarded === true) && (
          <div className="small muted forwarded">
            {ctx.frequently_forwarded === true ? 'Forwarded many times' : 'Forwarded'}
          </div>
        )}
        {m.referral && <Referral referral={m.referral} />}
        {product && (
          <div className="small quote">
            Asking about product <code>{str(product.product_retailer_id)}</code>
            {str(product.catalog_id) && <> in catalog {str(product.catalog_id)}</>}
          </div>
        )}
        <MessageBody m={m} />
        {reactions && (reactions.inbound || reactions.outbound) && (
          <ul className="reactions" aria-label="Reactions">
            {reactions.inbound && <li title="The customer reacted">{reactions.inbound}</li>}
            {reactions.outbound && <li title="Your team reacted">{reactions.outbound} (you)</li>}
          </ul>
        )}
        <div className="bubble-meta">
          {formatDate(m.created_at)}
          {m.direction === 'outbound' && m.sent_via && (
            <>
              {' · '}
              <span className="sender">{senderOf(m)}</span>
            </>
          )}
          {m.direction === 'outbound' && (
            <>
              {' · '}
              <span className={`status-${m.status}`}>{m.status}</span>
            </>
          )}
        </div>
        {m.error_reason && <div className="small field-error">{m.error_reason}</div>}
      </div>
    </div>
  );
}

const SENT_VIA = {
  teammate: 'A teammate',
  bot: 'Bot',
  flow: 'Flow',
  api: 'API',
  survey: 'Satisfaction survey',
  automatic: 'Automatic',
};

/** Who sent an outbound message: the teammate's name, the bot's, or a flow or the API. */
const senderOf = (m: ConversationMessage) => {
  if (!m.sent_via) return '';
  if (m.sent_via === 'teammate') return m.sender_name || SENT_VIA.teammate;
  if (m.sent_via === 'bot') return `${SENT_VIA.bot} · ${m.sender_name ?? ''}`;
  if (m.sent_via === 'automatic') return `${SENT_VIA.automatic} · ${m.sender_name ?? ''}`;
  return SENT_VIA[m.sent_via];
};

/** "Replying to" and a quote of the original, as WhatsApp shows a reply. */
function Quote({ m }: { m: ConversationMessage }) {
  const q = m.quoted;
  const c = q?.content ?? {};
  const said = q
    ? (q.text ??
      (q.template_name ? `Template ${q.template_name}` : undefined) ??
      str(isObject(c.body) ? c.body.text : undefined) ??
      str(c.caption) ??
      str(c.name) ??
      `(${q.type})`)
    : 'a message Parley does not have';
  return (
    <blockquote className="quote small">
      <span className="muted">
        Replying to {q ? (q.direction === 'inbound' ? 'the customer' : 'your message') : ''}
      </span>
      <div className="pre">{said}</div>
    </blockquote>
  );
}

/** The click-to-WhatsApp ad or post the customer came from. */
function Referral({ referral }: { referral: Json }) {
  const url = str(referral.source_url);
  return (
    <div className="quote small referral">
      <div className="muted">
        From {str(referral.source_type) === 'post' ? 'a post' : 'an ad'}
        {str(referral.headline) && <>: </>}
        <strong>{str(referral.headline)}</strong>
      </div>
      {str(referral.body) && <div>{str(referral.body)}</div>}
      {url && /^https?:\/\//i.test(url) && (
        <a href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>
      )}
    </div>
  );
}
