import { ApiError } from '../../api/errors.js';
import type { RichType, SendMessageBody } from './schemas.js';

const MEDIA = new Set<RichType>(['image', 'video', 'audio', 'document', 'sticker']);

type Media = { link?: string; id?: string };

/**
 * The rules Meta sets for a media, interactive, location, reaction or contacts message that one schema cannot
 * say (the field's shape and lengths are the schema's): 422 naming the field, before anything is stored.
 * Returns the type's object as the Graph request carries it.
 */
export function richContent(type: RichType, input: SendMessageBody): Record<string, unknown> {
  // Stored as the inbound contacts are ({contacts: [...]}); send-body.ts unwraps it for Meta.
  if (type === 'contacts') {
    if (!input.contacts) throw ApiError.validation('contacts', 'is required for a contacts message');
    return { contacts: input.contacts };
  }
  const content = input[type] as Record<string, unknown> | undefined;
  if (!content) throw ApiError.validation(type, `is required for a ${type} message`);
  if (MEDIA.has(type)) checkMedia(type, content as Media);
  if (type === 'interactive') checkInteractive(content as NonNullable<SendMessageBody['interactive']>);
  return content;
}

function checkMedia(field: string, media: Media) {
  if ((media.link === undefined) === (media.id === undefined))
    throw ApiError.validation(field, 'takes exactly one of link or id');
  if (media.link !== undefined && !/^https?:\/\/\S+$/i.test(media.link))
    throw ApiError.validation(`${field}.link`, 'an http(s) URL the network can fetch');
}

function checkInteractive(i: NonNullable<SendMessageBody['interactive']>) {
  const { header, action } = i;
  if (header) {
    const kind = header.type;
    const given = (['text', 'image', 'video', 'document'] as const).filter((k) => header[k] !== undefined);
    if (given.length !== 1 || given[0] !== kind)
      throw ApiError.validation('interactive.header', `a ${kind} header takes \`${kind}\` and nothing else`);
    if (i.type === 'list' && kind !== 'text')
      throw ApiError.validation('interactive.header', 'a list message takes a text header only');
    if (kind !== 'text') checkMedia(`interactive.header.${kind}`, header[kind] as Media);
  }
  if (i.type === 'cta_url') {
    if (i.body.text.length > 1024)
      throw ApiError.validation(
        'interactive.body.text',
        'at most 1024 characters for a call-to-action button',
      );
    const { name, parameters, ...rest } = action;
    if (name !== 'cta_url' || !parameters || Object.keys(rest).length > 0)
      throw ApiError.validation(
        'interactive.action',
        'a cta_url message takes `name: "cta_url"` and `parameters` {display_text, url}, and nothing else',
      );
    if (!/^https?:\/\/[^\s/]+\S*$/i.test(parameters.url))
      throw ApiError.validation('interactive.action.parameters.url', 'an http(s) URL');
    return;
  }
  if (action.name !== undefined || action.parameters !== undefined)
    throw ApiError.validation('interactive.action', '`name` and `parameters` are for a cta_url message only');
  if (i.type === 'button') {
    if (i.body.text.length > 1024)
      throw ApiError.validation('interactive.body.text', 'at most 1024 characters for reply buttons');
    if (!action.buttons || action.button !== undefined || action.sections !== undefined)
      throw ApiError.validation(
        'interactive.action',
        'reply buttons take `buttons` (1 to 3) and nothing else',
      );
    unique(
      'interactive.action.buttons',
      action.buttons.map((b) => b.reply.id),
      'id',
    );
    unique(
      'interactive.action.buttons',
      action.buttons.map((b) => b.reply.title),
      'title',
    );
    return;
  }
  if (!action.sections || action.button === undefined || action.buttons !== undefined)
    throw ApiError.validation('interactive.action', 'a list takes `button` and `sections`, and nothing else');
  const rows = action.sections.flatMap((s) => s.rows);
  if (rows.length > 10) throw ApiError.validation('interactive.action.sections', 'at most 10 rows in all');
  unique(
    'interactive.action.sections',
    rows.map((r) => r.id),
    'row id',
  );
  if (action.sections.length > 1) {
    const untitled = action.sections.findIndex((s) => s.title === undefined);
    if (untitled >= 0)
      throw ApiError.validation(
        `interactive.action.sections[${untitled}].title`,
        'is required when there are several sections',
      );
  }
}

function unique(field: string, values: string[], what: string) {
  if (new Set(values).size !== values.length) throw ApiError.validation(field, `each ${what} must be unique`);
}
