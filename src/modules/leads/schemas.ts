import { type Static, Type } from 'typebox';
import { AnyKey, LenientText, MaybeText, MaybeTimestamp, PageFields, Timestamp } from '../../api/schema.js';
import { Run } from '../automation/schemas.js';
import { FIELD_VALUE_MAX_LENGTH } from '../forms/form-fields.js';

// Form values are text; JSON callers may also send numbers, booleans, null, and lists of text
// (checkbox groups; a urlencoded body with a repeated name gives a list too).
const FieldValue = Type.Union([
  LenientText({ maxLength: FIELD_VALUE_MAX_LENGTH }),
  Type.Number(),
  Type.Boolean(),
  Type.Null(),
  Type.Array(LenientText({ maxLength: 1_000 }), { maxItems: 100 }),
]);

export const FormSubmitBody = Type.Record(AnyKey, FieldValue, {
  maxProperties: 100,
  propertyNames: LenientText({ minLength: 1, maxLength: 64 }),
});
export type FormSubmitBody = Static<typeof FormSubmitBody>;

/** A lead as the web app lists it. */
export const ListedLead = Type.Object({
  id: Type.String(),
  name: MaybeText,
  email: MaybeText,
  phone: MaybeText,
  status: Type.String({ description: 'new, contacted, qualified, won or lost' }),
  source: Type.Union([Type.Literal('form'), Type.Literal('webhook')]),
  source_id: Type.String(),
  source_name: Type.Union([Type.String({ description: "The form's or the sequence's name" }), Type.Null()]),
  contact_id: MaybeText,
  owner_id: MaybeText,
  owner_name: MaybeText,
  archived_at: MaybeTimestamp,
  created_at: Timestamp,
});
export type ListedLead = Static<typeof ListedLead>;

export const Lead = Type.Object({
  ...ListedLead.properties,
  fields: Type.Record(AnyKey, Type.Unknown()),
  labels: Type.Record(AnyKey, Type.String(), { description: "A form's lead: each field's label, by name" }),
  updated_at: Timestamp,
});
export type Lead = Static<typeof Lead>;

export const LeadNote = Type.Object({
  id: Type.String(),
  body: Type.String(),
  author_id: MaybeText,
  author_name: MaybeText,
  created_at: Timestamp,
});
export type LeadNote = Static<typeof LeadNote>;

export const LeadListResult = Type.Object({
  result: Type.Literal(true),
  leads: Type.Array(ListedLead),
  ...PageFields,
});

export const LeadResult = Type.Object({
  result: Type.Literal(true),
  lead: Lead,
  runs: Type.Array(Run),
  notes: Type.Array(LeadNote),
});

export const LeadNoteResult = Type.Object({ result: Type.Literal(true), note: LeadNote });
