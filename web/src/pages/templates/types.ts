/** A template as the web app's API lists it: its stored components and what a send of it must give. */
export interface TemplateButton {
  type: string;
  text?: string;
  url?: string;
  phone_number?: string;
  example?: string | string[];
}

export interface TemplateComponent {
  type: string;
  format?: string;
  text?: string;
  example?: {
    header_text?: string[];
    header_text_named_params?: { param_name: string; example: string }[];
    header_handle?: string[];
    body_text?: string[][];
    body_text_named_params?: { param_name: string; example: string }[];
  };
  buttons?: TemplateButton[];
  /** AUTHENTICATION: WhatsApp's options in place of text. */
  add_security_recommendation?: boolean;
  code_expiration_minutes?: number;
}

export interface Template {
  id: string;
  name: string;
  language: string;
  category: string;
  body: string;
  status: string;
  rejected_reason: string | null;
  updated_at: string;
  components: TemplateComponent[] | null;
  variable_count: number;
  parameter_format: 'POSITIONAL' | 'NAMED';
  /** A NAMED template's body variables in order; empty for positional ones. */
  body_parameters: string[];
  header: { format: string; takes_value: boolean } | null;
  buttons: {
    index: number;
    type: string;
    takes: 'payload' | 'text' | 'coupon_code' | null;
    required: boolean;
  }[];
}

export interface HeaderValue {
  link?: string;
  filename?: string;
  latitude?: number | string;
  longitude?: number | string;
  name?: string;
  address?: string;
}

/** The values of a send: POST /api/v1/messages' `template` (and a send_template step's) minus name and language. */
export interface TemplateValues {
  header?: string | HeaderValue;
  body?: string[] | Record<string, string>;
  buttons?: { index: number; payload?: string; text?: string; coupon_code?: string }[];
}

/** What the message bubble shows: the header, the body and footer text, the buttons' labels. */
export interface BubbleModel {
  header?: { format: string; text?: string; media?: string };
  body: string;
  footer?: string;
  buttons: { type: string; text: string }[];
}

export const component = (t: { components: TemplateComponent[] | null }, type: string) =>
  t.components?.find((c) => c.type.toUpperCase() === type);
