/** Meta's objects are kept as the network sent them: every field may be missing. */
export type Json = Record<string, unknown>;

/** A message of the conversation as GET /conversations/:id gives it. */
export interface ConversationMessage {
  id: string;
  direction: 'inbound' | 'outbound';
  type: string;
  wamid: string | null;
  text: string | null;
  status: string;
  error_code: number | null;
  error_reason: string | null;
  created_at: string;
  /** The type's object in Meta's shape: as received (inbound), or as sent (outbound media, interactive...). */
  content: Json | null;
  context_wamid: string | null;
  /** Inbound: Meta's context (forwarded, frequently_forwarded, referred_product). */
  context: Json | null;
  /** Inbound: the click-to-WhatsApp ad the customer came from. */
  referral: Json | null;
  /** The message this one replies to, when Parley has it. */
  quoted: {
    id: string;
    direction: string;
    type: string;
    text: string | null;
    template_name: string | null;
    content: Json | null;
  } | null;
  template_name: string | null;
  template_values: string[] | null;
  template_body?: string | null;
  /** The template as created: HEADER, BODY, FOOTER, BUTTONS in Meta's shape. */
  template_definition?: Json[] | null;
  /** Outbound: how it was sent, and by whom when a teammate sent it from the app. */
  sent_via?: 'teammate' | 'api' | 'flow' | null;
  sender_name?: string | null;
  /** The values it was sent with, as Graph send components (header, body, button parameters). */
  template_components?: Json[] | null;
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
export const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
