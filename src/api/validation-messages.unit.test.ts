import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { validatorFactory } from '../http/validation.js';
import { toApiError } from './errors.js';
import { Text } from './schema.js';

const Body = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 200 }),
    email: Type.Optional(Type.Union([Text({ maxLength: 254, format: 'email' }), Type.Null()])),
    kind: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('template')])),
    tags: Type.Optional(Type.Array(Text({ minLength: 1, maxLength: 64 }), { maxItems: 2 })),
    seats: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
const validate = validatorFactory()({})({ schema: Body, httpPart: 'body', method: 'POST', url: '/x' }) as ((
  body: unknown,
) => boolean) & { errors: unknown[] };

/** What a person reads for a body the schema refuses, as the error handler words it. */
function refusal(body: unknown) {
  expect(validate(body)).toBe(false);
  const err = toApiError(
    Object.assign(new Error('x'), { validation: validate.errors, validationContext: 'body' }),
  )!;
  return { message: err.message, details: err.details };
}

describe('schema failures in plain words', () => {
  it.each([
    [{}, [{ field: 'name', message: 'Fill this in.' }]],
    [{ name: '' }, [{ field: 'name', message: 'Fill this in.' }]],
    [{ name: 'n'.repeat(201) }, [{ field: 'name', message: 'Use at most 200 characters.' }]],
    [
      { name: 'a', email: 'nope' },
      [{ field: 'email', message: 'Enter an e-mail address, such as name@example.com.' }],
    ],
    [{ name: 'a', kind: 'x' }, [{ field: 'kind', message: 'Choose one of "text", "template".' }]],
    [{ name: 'a', tags: ['a', 'b', 'c'] }, [{ field: 'tags', message: 'Give at most 2 items.' }]],
    [{ name: 'a', tags: [''] }, [{ field: 'tags.0', message: 'Fill this in.' }]],
    [{ name: 'a', seats: 1.5 }, [{ field: 'seats', message: 'Use a whole number here.' }]],
    [{ name: 'a', seats: 0 }, [{ field: 'seats', message: 'Use 1 or more.' }]],
    [
      { name: 'a', nmae: 'b' },
      [{ field: 'nmae', message: 'Remove this field: it is not one this accepts.' }],
    ],
    [
      { name: 'a\u0000' },
      [{ field: 'name', message: 'This contains characters that are not allowed here.' }],
    ],
    [{ name: 5 }, [{ field: 'name', message: 'Use text here.' }]],
  ])('%j', (body, details) => {
    const said = refusal(body);
    expect(said.details).toEqual(details);
    expect(said.message).toBe(`${details[0]!.field}: ${details[0]!.message}`);
  });
});
