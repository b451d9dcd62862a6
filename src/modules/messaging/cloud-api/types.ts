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

export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: { type: string; text?: string; format?: string }[];
}

export interface TemplateListResponse {
  data: GraphTemplate[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

/** POST /{waba-id}/message_templates; `example` is required by Meta when the body has variables. */
export interface CreateTemplateRequest {
  name: string;
  language: string;
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  components: { type: 'BODY'; text: string; example?: { body_text: string[][] } }[];
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
