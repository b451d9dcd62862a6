import { Type } from 'typebox';
import { PageCursor, PageLimit } from '../../api/schema.js';
import { AppForm, FormBody } from './schemas.js';

// REST v1's forms: the web app's form, with how to embed it, and an example of each.

const Embed = Type.Object(
  {
    hosted_url: Type.String({ description: "The form's own page, to link to" }),
    script: Type.String({ description: 'A script tag that renders the form where it is pasted' }),
    html: Type.String({ description: 'A plain HTML form that posts without JavaScript' }),
  },
  {
    description:
      'Publish & embed: the three ways the form reaches people (they take submissions once active)',
  },
);

const FORM = {
  id: 'fm_2b7c9d1e3f4a5b6c',
  name: 'Demo request',
  token: 'ft_Q2hhbmdlIG1lOiBhIHRva2VuIGV4YW1wbGU',
  active: true,
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'email', label: 'E-mail', type: 'email', required: true },
    {
      name: 'company_size',
      label: 'Company size',
      type: 'select',
      required: false,
      options: ['1-10', '11-50'],
    },
  ],
  thank_you_message: 'Thanks! We will call you within a day.',
  redirect_url: null,
  archived_at: null,
  created_at: '2026-11-27T09:00:00.000Z',
  updated_at: '2026-11-27T09:15:00.000Z',
  leads: 12,
};
const HOSTED = 'https://app.parley.example/f/ft_Q2hhbmdlIG1lOiBhIHRva2VuIGV4YW1wbGU';
const EMBED = {
  hosted_url: HOSTED,
  script: `<script src="${HOSTED}/embed.js" async></script>`,
  html: '<form method="post" action="https://app.parley.example/api/forms/submit">…</form>',
};

export const ApiFormList = Type.Object(
  {
    result: Type.Literal(true),
    forms: Type.Array(AppForm),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
  },
  { examples: [{ result: true, forms: [FORM], next_cursor: null }] },
);

export const ApiFormQuery = Type.Object({
  limit: PageLimit,
  cursor: Type.Optional(PageCursor),
});

export const ApiFormResult = Type.Object(
  { result: Type.Literal(true), form: AppForm, embed: Embed },
  { examples: [{ result: true, form: FORM, embed: EMBED }] },
);

const { thank_you_message, redirect_url, fields } = FORM;

export const ApiNewForm = {
  ...FormBody,
  examples: [{ name: 'Demo request', fields, active: true, thank_you_message, redirect_url }],
};

export const ApiFormPatch = {
  ...FormBody,
  minProperties: 1,
  examples: [{ name: 'Demo request (December)', active: false }],
};
