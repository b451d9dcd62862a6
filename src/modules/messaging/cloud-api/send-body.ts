import type { RichType } from '../schemas.js';
import type { GraphSendComponent } from './types.js';

export type OutboundMessage =
  | {
      type: 'template';
      to: string;
      name: string;
      language: string;
      /** The template's parameters, as the Graph request carries them (template-parameters.ts). */
      components: GraphSendComponent[];
      callbackData?: string;
    }
  | { type: 'text'; to: string; text: string; callbackData?: string }
  | {
      /** Media, interactive, location or reaction: `content` is the type's object in Meta's shape; contacts: `{contacts}`. */
      type: RichType;
      to: string;
      content: Record<string, unknown>;
      callbackData?: string;
    };

/** The body of POST /{phone-number-id}/messages for a message, as Meta documents it. */
export function sendRequestBody(message: OutboundMessage) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to,
    ...(message.type === 'template'
      ? {
          type: 'template',
          template: {
            name: message.name,
            language: { code: message.language },
            components: message.components,
          },
        }
      : message.type === 'text'
        ? { type: 'text', text: { preview_url: false, body: message.text } }
        : message.type === 'contacts'
          ? { type: 'contacts', contacts: message.content.contacts }
          : { type: message.type, [message.type]: message.content }),
    ...(message.callbackData ? { biz_opaque_callback_data: message.callbackData } : {}),
  };
}

/** A message stored before its components were (only body values): the body component alone. */
export function bodyComponents(values: string[]): GraphSendComponent[] {
  return values.length ? [{ type: 'body', parameters: values.map((text) => ({ type: 'text', text })) }] : [];
}
