import { MediaContent } from './MediaContent';
import { isObject, type Json, list, str } from './types';

/**
 * Reply buttons, a list or a call-to-action URL button as Parley sent it: header, body, footer and what
 * the customer may tap.
 */
export function SentInteractive({ messageId, content }: { messageId: string; content: Json }) {
  const header = isObject(content.header) ? content.header : undefined;
  const kind = str(header?.type);
  const action = isObject(content.action) ? content.action : {};
  return (
    <>
      {kind === 'text' && <div className="bubble-header">{str(header?.text)}</div>}
      {kind && kind !== 'text' && isObject(header?.[kind]) && (
        <MediaContent messageId={messageId} kind={kind} media={header[kind] as Json} />
      )}
      <div className="pre">{str(isObject(content.body) ? content.body.text : undefined)}</div>
      {isObject(content.footer) && <div className="bubble-footer">{str(content.footer.text)}</div>}
      {content.type === 'cta_url' ? (
        <CtaButton parameters={isObject(action.parameters) ? action.parameters : {}} />
      ) : content.type === 'list' ? (
        <div className="bubble-list">
          <div className="bubble-button" title="The menu button the customer opens">
            ☰ {str(action.button)}
          </div>
          {list(action.sections).map((s, i) => (
            <section key={str(s.title) ?? i} aria-label={str(s.title) ?? 'Options'}>
              {str(s.title) && <div className="small strong">{str(s.title)}</div>}
              <ul>
                {list(s.rows).map((r) => (
                  <li key={str(r.id)}>
                    {str(r.title)}
                    {str(r.description) && <span className="small muted"> — {str(r.description)}</span>}
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      ) : (
        <ButtonRow
          titles={list(action.buttons).map((b) => str(isObject(b.reply) ? b.reply.title : undefined))}
        />
      )}
    </>
  );
}

/** A call-to-action button: its label, and the address it opens (shown, since the customer sees only the label). */
function CtaButton({ parameters }: { parameters: Json }) {
  const url = str(parameters.url);
  return (
    <div className="bubble-buttons">
      <div className="bubble-button" title="Opens a web page">
        ↗ {str(parameters.display_text)}
      </div>
      {url && <div className="small muted">Opens {url}</div>}
    </div>
  );
}

/** The buttons under a message, as the customer sees them (not clickable here). */
export function ButtonRow({ titles }: { titles: (string | undefined)[] }) {
  if (titles.length === 0) return null;
  return (
    <ul className="bubble-buttons" aria-label="Buttons">
      {titles.map((t, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the buttons' order is fixed
        <li key={i} className="bubble-button">
          {t}
        </li>
      ))}
    </ul>
  );
}

/** A customer's tap on a reply button or a list row, or a filled-in form (Flows). */
export function ReceivedInteractive({ content }: { content: Json }) {
  const button = isObject(content.button_reply) ? content.button_reply : undefined;
  const row = isObject(content.list_reply) ? content.list_reply : undefined;
  if (button)
    return (
      <div>
        <span className="small muted">Tapped the button </span>
        <strong>{str(button.title)}</strong>
      </div>
    );
  if (row)
    return (
      <div>
        <span className="small muted">Chose from the list </span>
        <strong>{str(row.title)}</strong>
        {str(row.description) && <div className="small muted">{str(row.description)}</div>}
      </div>
    );
  if (isObject(content.nfm_reply))
    return <div className="muted">Sent a form ({str(content.nfm_reply.name) ?? 'a WhatsApp Flow'}).</div>;
  return <div className="muted">Sent an interactive reply Parley cannot show.</div>;
}

/** A tap on a template's quick-reply button: its text, and the payload automations branch on. */
export function QuickReply({ content }: { content: Json }) {
  return (
    <div>
      <span className="small muted">Tapped the button </span>
      <strong>{str(content.text) ?? str(content.payload)}</strong>
      {str(content.payload) && (
        <div className="small muted">
          Payload <code>{str(content.payload)}</code>
        </div>
      )}
    </div>
  );
}
