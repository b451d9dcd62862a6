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
    code: number;
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
      value: {
        messaging_product: 'whatsapp';
        metadata: { display_phone_number: string; phone_number_id: string };
        contacts?: { profile?: { name?: string }; wa_id: string }[];
        messages?: WebhookMessage[];
        statuses?: WebhookStatus[];
      };
    }[];
  }[];
}
