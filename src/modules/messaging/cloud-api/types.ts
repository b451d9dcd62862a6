// The subset of the WhatsApp Cloud API (Graph API) that Parley speaks, shaped as Meta documents it.

export interface SendResponse {
  messaging_product: 'whatsapp';
  contacts: { input: string; wa_id: string }[];
  messages: { id: string; message_status?: string }[];
}

export interface GraphErrorBody {
  error: {
    message: string;
    type?: string;
    /** A number by Meta's reference; read through networkError, which also takes a string. */
    code: number | string;
    error_subcode?: number;
    error_data?: { messaging_product?: string; details?: string };
    fbtrace_id?: string;
  };
}

/** A button of a template's BUTTONS component, as the template list answers it. */
export interface GraphTemplateButton {
  type: string;
  text?: string;
  url?: string;
  phone_number?: string;
  otp_type?: string;
  example?: string[] | string;
  [field: string]: unknown;
}

/** A template component as the template list answers it: HEADER, BODY, FOOTER or BUTTONS. */
export interface GraphTemplateComponent {
  type: string;
  format?: string;
  text?: string;
  example?: Record<string, unknown>;
  buttons?: GraphTemplateButton[];
  add_security_recommendation?: boolean;
  code_expiration_minutes?: number;
  [field: string]: unknown;
}

export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: GraphTemplateComponent[];
  parameter_format?: string;
  quality_score?: { score?: string; date?: number };
  rejected_reason?: string;
}

export type GraphMedia = { link: string; filename?: string } | { id: string; filename?: string };

/** A parameter of a template message's component (POST /{phone-number-id}/messages). */
export type GraphSendParameter =
  | { type: 'text'; text: string; parameter_name?: string }
  | {
      type: 'currency';
      currency: { fallback_value: string; code: string; amount_1000: number };
      parameter_name?: string;
    }
  | { type: 'date_time'; date_time: { fallback_value: string }; parameter_name?: string }
  | { type: 'image'; image: GraphMedia }
  | { type: 'video'; video: GraphMedia }
  | { type: 'document'; document: GraphMedia }
  | { type: 'location'; location: { latitude: string; longitude: string; name?: string; address?: string } }
  | { type: 'payload'; payload: string }
  | { type: 'coupon_code'; coupon_code: string };

export type GraphSendComponent =
  | { type: 'header' | 'body'; parameters: GraphSendParameter[] }
  | {
      type: 'button';
      sub_type: 'quick_reply' | 'url' | 'copy_code';
      index: string;
      parameters: GraphSendParameter[];
    };

export interface TemplateListResponse {
  data: GraphTemplate[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

/** POST /{waba-id}/message_templates; `example` is required by Meta when the body has variables. */
export interface CreateTemplateRequest {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  parameter_format?: 'POSITIONAL' | 'NAMED';
  components: GraphTemplateComponent[];
}

export interface CreateTemplateResponse {
  id: string;
  status: string;
  category: string;
}

/** The value of a `message_template_status_update` change. */
export interface TemplateStatusUpdate {
  event: string;
  message_template_id: number | string;
  message_template_name: string;
  message_template_language: string;
  reason?: string;
}

export interface WebhookMessage {
  from: string;
  id: string;
  timestamp: string;
  type: string;
  text?: { body: string };
}

export interface WebhookStatus {
  id: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  timestamp: string;
  recipient_id: string;
  biz_opaque_callback_data?: string;
  errors?: { code: number; title?: string; message?: string; error_data?: { details?: string } }[];
}

export interface WebhookPayload {
  object: 'whatsapp_business_account';
  entry: {
    id: string;
    changes: {
      field: string;
      value: Partial<TemplateStatusUpdate> & {
        messaging_product: 'whatsapp';
        metadata: { display_phone_number: string; phone_number_id: string };
        contacts?: { profile?: { name?: string }; wa_id: string }[];
        messages?: WebhookMessage[];
        statuses?: WebhookStatus[];
      };
    }[];
  }[];
}

/** `GET /{phone-number-id}?fields=...`: what Meta says of a business phone number. */
export interface GraphPhoneNumber {
  id?: string;
  display_phone_number?: string;
  verified_name?: string;
  /** GREEN, YELLOW, RED or UNKNOWN. */
  quality_rating?: string;
  /** TIER_250, TIER_1K, TIER_10K, TIER_100K or TIER_UNLIMITED. */
  messaging_limit_tier?: string;
}
