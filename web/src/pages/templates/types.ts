import type { TemplateComponentView } from '../../server-types';

/** A template as the web app's API lists it: its stored components and what a send of it must give. */
export type { Template } from '../../server-types';
export type TemplateComponent = TemplateComponentView;
export type TemplateButton = NonNullable<TemplateComponent['buttons']>[number];

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
