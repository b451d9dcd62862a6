const MEDIA = new Set(['image', 'video', 'audio', 'document', 'sticker']);
const CAPTIONED = new Set(['image', 'video', 'document']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number) => typeof v === 'string' && v.length >= 1 && v.length <= max;

/**
 * Meta's checks on a media, interactive, location, reaction or contacts message, as its reference states them:
 * the details of the 100 "Invalid parameter" it answers, or null when the message is well formed;
 * undefined for a type this simulator does not know.
 */
export function checkRichSend(type: string, body: Obj): string | null | undefined {
  const content = body[type];
  if (type === 'contacts') return contacts(content);
  if (!isObj(content)) return MEDIA.has(type) || type in CHECKS ? `${type} is required` : undefined;
  if (MEDIA.has(type)) return media(type, content);
  return CHECKS[type]?.(content);
}

function media(type: string, m: Obj): string | null {
  if ((m.link === undefined) === (m.id === undefined)) return `${type} takes exactly one of link or id`;
  if (m.link !== undefined && (typeof m.link !== 'string' || !/^https?:\/\//.test(m.link)))
    return `${type}.link is not a URL`;
  if (m.caption !== undefined && (!CAPTIONED.has(type) || !text(m.caption, 1024)))
    return `${type}.caption is not allowed or too long`;
  if (m.filename !== undefined && type !== 'document') return `${type}.filename is for documents only`;
  return null;
}

function contacts(list: unknown): string | null {
  if (!Array.isArray(list) || list.length === 0) return 'contacts takes at least one contact';
  const bad = list.findIndex((c) => !isObj(c) || !isObj(c.name) || !text(c.name.formatted_name, 2048));
  if (bad >= 0) return `contacts[${bad}].name.formatted_name is required`;
  for (const [i, c] of (list as Obj[]).entries())
    for (const key of ['phones', 'emails', 'urls', 'addresses'])
      if (c[key] !== undefined && (!Array.isArray(c[key]) || !(c[key] as unknown[]).every(isObj)))
        return `contacts[${i}].${key} must be an array of objects`;
  return null;
}

function ctaUrl(body: Obj, action: Obj): string | null {
  if (!text(body.text, 1024)) return 'interactive.body.text is limited to 1024 characters';
  const p = action.parameters;
  if (action.name !== 'cta_url' || !isObj(p)) return 'interactive.action takes name cta_url and parameters';
  if (!text(p.display_text, 20))
    return 'interactive.action.parameters.display_text is limited to 20 characters';
  if (typeof p.url !== 'string' || !/^https?:\/\/\S+$/.test(p.url))
    return 'interactive.action.parameters.url is not a URL';
  return null;
}

const CHECKS: Record<string, (c: Obj) => string | null> = {
  location: (c) =>
    typeof c.latitude === 'number' && typeof c.longitude === 'number'
      ? null
      : 'location.latitude and location.longitude are required',
  reaction: (c) =>
    typeof c.message_id === 'string' && typeof c.emoji === 'string'
      ? null
      : 'reaction.message_id and reaction.emoji are required',
  interactive: (c) => {
    const body = c.body;
    const action = c.action;
    if (!isObj(body) || !isObj(action)) return 'interactive.body and interactive.action are required';
    if (c.type === 'button') {
      const buttons = action.buttons;
      if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 3)
        return 'interactive.action.buttons takes 1 to 3 buttons';
      if (!text(body.text, 1024)) return 'interactive.body.text is limited to 1024 characters';
      const bad = buttons.findIndex(
        (b) =>
          !isObj(b) ||
          b.type !== 'reply' ||
          !isObj(b.reply) ||
          !text(b.reply.id, 256) ||
          !text(b.reply.title, 20),
      );
      return bad >= 0
        ? `interactive.action.buttons[${bad}] is not a reply button with an id and a title of up to 20 characters`
        : null;
    }
    if (c.type === 'list') {
      const sections = action.sections;
      if (!text(action.button, 20)) return 'interactive.action.button is limited to 20 characters';
      if (!Array.isArray(sections) || sections.length < 1 || sections.length > 10)
        return 'interactive.action.sections takes 1 to 10 sections';
      const rows = sections.flatMap((s) => (isObj(s) && Array.isArray(s.rows) ? s.rows : [null]));
      if (rows.length > 10) return 'a list takes at most 10 rows';
      if (rows.some((r) => !isObj(r) || !text(r.id, 200) || !text(r.title, 24)))
        return 'a row needs an id and a title of up to 24 characters';
      return null;
    }
    if (c.type === 'cta_url') return ctaUrl(body, action);
    return `interactive.type ${String(c.type)} is not supported`;
  },
};
