import { expect, it } from 'vitest';
import { countVariables, namedVariables } from './variables.js';

it.each([
  ['Hello', 0],
  ['Hi {{1}}', 1],
  ['Hi {{1}}, order {{2}} ships {{ 3 }}', 3],
  ['{{1}} and {{1}} again', 1],
  ['{{name}} is not positional', 0],
])('%j has %i variables', (body, n) => {
  expect(countVariables(body)).toBe(n);
});

it.each([
  ['Hello', []],
  ['Hi {{first_name}}, order {{order_id}} for {{first_name}}', ['first_name', 'order_id']],
  ['{{1}} is positional', []],
])('%j has named variables %j', (body, names) => {
  expect(namedVariables(body)).toEqual(names);
});
