import { type Static, Type } from 'typebox';
import { AnyKey, LenientText } from '../../http/schema.js';
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
