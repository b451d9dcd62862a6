import type { ConversationMessage } from '../../server-types';
import { ButtonRow } from './InteractiveContent';
import { MediaContent } from './MediaContent';
import { LocationContent } from './PlaceContent';
import { isObject, type Json, list, str } from './types';

/** The text value of one Graph send parameter. */
const paramText = (p: Json | undefined) =>
  p ? (str(p.text) ?? str(p.payload) ?? str(p.coupon_code)) : undefined;

/** `{{1}}` or `{{first_name}}` filled with the values the message was sent with. */
function fill(text: string, params: Json[], fallback: string[] = []) {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (all, key: string) => {
    if (/^\d+$/.test(key)) return paramText(params[Number(key) - 1]) ?? fallback[Number(key) - 1] ?? all;
    return paramText(params.find((p) => p.parameter_name === key)) ?? all;
  });
}

/**
 * A template message as the customer received it: the template's header, body, footer and buttons
 * (as created) with the values this message carried (header media or text, body variables, a URL
 * button's suffix, a coupon code).
 */
export function TemplateContent({ m }: { m: ConversationMessage }) {
  // Meta answers in capitals; a template created elsewhere may not be.
  const definition = list(m.template_definition).map(
    (c): Json => ({ ...c, type: String(c.type).toUpperCase() }),
  );
  const sent = list(m.template_components);
  const paramsOf = (type: string) => list(sent.find((c) => c.type === type)?.parameters);
  const header = definition.find((c) => c.type === 'HEADER');
  const body = definition.find((c) => c.type === 'BODY');
  const footer = definition.find((c) => c.type === 'FOOTER');
  const buttons = list(definition.find((c) => c.type === 'BUTTONS')?.buttons);
  const headerParam = paramsOf('header')[0];
  const format = str(header?.format)?.toLowerCase();
  const bodyText = str(body?.text) ?? m.template_body;
  return (
    <>
      <div className="small muted">
        Template <code>{m.template_name}</code>
      </div>
      {format === 'text' && str(header?.text) && (
        <div className="bubble-header">{fill(str(header?.text)!, paramsOf('header'))}</div>
      )}
      {format && ['image', 'video', 'document'].includes(format) && (
        <MediaContent
          messageId={m.id}
          kind={format}
          media={isObject(headerParam?.[format]) ? (headerParam[format] as Json) : {}}
        />
      )}
      {format === 'location' && isObject(headerParam?.location) && (
        <LocationContent location={headerParam.location} />
      )}
      <div className="pre">
        {bodyText
          ? fill(bodyText, paramsOf('body'), m.template_values ?? [])
          : (m.template_values ?? []).join(' · ')}
      </div>
      {str(footer?.text) && <div className="bubble-footer">{str(footer?.text)}</div>}
      <ButtonRow titles={buttons.map((b, i) => buttonLabel(b, sent, i))} />
    </>
  );
}

/** What a template button shows: its text, and where a URL button leads with this message's suffix. */
function buttonLabel(button: Json, sent: Json[], index: number) {
  const value = paramText(
    list(sent.find((c) => c.type === 'button' && String(c.index) === String(index))?.parameters)[0],
  );
  const text = str(button.text) ?? str(button.type);
  switch (String(button.type).toUpperCase()) {
    case 'URL': {
      const url = str(button.url);
      return url ? `${text} → ${value ? url.replace(/\{\{1\}\}/, value) : url}` : text;
    }
    case 'PHONE_NUMBER':
      return `${text} (${str(button.phone_number) ?? ''})`;
    case 'COPY_CODE':
    case 'OTP':
      return value ? `${text}: ${value}` : text;
    default:
      return text;
  }
}
