import { timeAgo } from '../../api';
import { Link } from '../../router';
import type { InboxRow } from '../../server-types';
import { Badge } from '../../ui/Badge';
import { Highlight, HighlightPhone, phoneDigits } from './Highlight';
import { rowId } from './keys';
import { LabelChips } from './LabelChips';
import { PresenceMarker } from './Presence';
import { STATE_LABELS } from './types';

const preview = (r: InboxRow) =>
  r.last_content_removed
    ? 'Content removed'
    : r.last_type === 'template'
      ? `Template ${r.last_template_name}`
      : (r.last_text ?? (r.last_type ? `(${r.last_type})` : ''));

/** One conversation of the inbox's list: a link to it, with what the search matched marked. */
export function ConversationRow({
  row: r,
  href,
  current,
  search,
}: {
  row: InboxRow;
  href: string;
  current: boolean;
  search: string;
}) {
  return (
    <Link
      href={href}
      className="conversation-row"
      id={rowId(r.contact_id)}
      data-row={r.contact_id}
      aria-current={current ? 'page' : undefined}
    >
      <span className="conversation-top">
        <strong className="truncate">
          {r.name ? (
            <Highlight text={r.name} term={search} />
          ) : (
            <>
              +<HighlightPhone phone={r.phone} term={search} />
            </>
          )}
        </strong>
        <PresenceMarker contactId={r.contact_id} />
        <span className="small muted">{timeAgo(r.last_message_at)}</span>
      </span>
      <span className="conversation-bottom">
        <span className="truncate muted small">
          {r.match !== null ? (
            <Highlight text={r.match} term={search} />
          ) : (
            <>
              {r.last_direction === 'outbound' ? 'You: ' : ''}
              {preview(r)}
            </>
          )}
        </span>
        {r.unread > 0 && (
          <span className="unread-badge" title={`${r.unread} unread`}>
            {r.unread >= 100 ? '99+' : r.unread}
            <span className="sr-only"> unread</span>
          </span>
        )}
      </span>
      <span className="conversation-tags">
        {r.name && phoneDigits(search) && (
          <span className="small muted">
            +<HighlightPhone phone={r.phone} term={search} />
          </span>
        )}
        {r.state !== 'open' && (
          <Badge tone={r.state === 'resolved' ? 'green' : 'amber'}>{STATE_LABELS[r.state]}</Badge>
        )}
        <LabelChips labels={r.labels} />
        {r.team_name !== null && <span className="small muted">{r.team_name}</span>}
        {r.assignee_name !== null && <span className="small muted">→ {r.assignee_name || 'Teammate'}</span>}
        {r.bot_name !== null && (
          <span className="small muted">
            <Badge tone="blue">Bot</Badge> {r.bot_name}
          </span>
        )}
      </span>
    </Link>
  );
}
