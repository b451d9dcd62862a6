import type { Check, Condition } from './definition.js';
import { lookup, type Scope } from './interpolate.js';

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' && Object.keys(value as object).length === 0)
  );
}

function contains(value: unknown, wanted: string): boolean {
  if (Array.isArray(value)) return value.some((v) => String(v) === wanted);
  if (typeof value === 'string') return value.includes(wanted);
  return false;
}

// Numbers compare as numbers when both sides read as numbers, otherwise as text.
function compare(value: unknown, wanted: string): number | null {
  if (value === undefined || value === null || typeof value === 'object') return null;
  const a = Number(value);
  const b = Number(wanted);
  if (String(value).trim() !== '' && wanted.trim() !== '' && Number.isFinite(a) && Number.isFinite(b)) {
    return a - b;
  }
  return String(value).localeCompare(wanted);
}

function holds(check: Check, scope: Scope, inside: boolean): boolean {
  if ('inside_business_hours' in check) return check.inside_business_hours === inside;
  const value = lookup(scope, check.field);
  const wanted = check.value ?? '';
  switch (check.op) {
    case 'exists':
      return !isEmpty(value);
    case 'not_exists':
      return isEmpty(value);
    case 'equals':
      return !Array.isArray(value) && value !== undefined && value !== null && String(value) === wanted;
    case 'not_equals':
      return !(!Array.isArray(value) && value !== undefined && value !== null && String(value) === wanted);
    case 'contains':
      return contains(value, wanted);
    case 'not_contains':
      return !contains(value, wanted);
    case 'greater_than':
      return (compare(value, wanted) ?? 0) > 0;
    case 'less_than':
      return (compare(value, wanted) ?? 0) < 0;
    default:
      return false;
  }
}

/**
 * Whether a condition step's `if` holds for the run's contact, event and lead; `inside`: whether the
 * workspace is inside its business hours as the step runs (read only when a check asks, usesHours).
 */
export function evaluate(condition: Condition, scope: Scope, inside = true): boolean {
  if ('all' in condition) return condition.all.every((c) => holds(c, scope, inside));
  if ('any' in condition) return condition.any.some((c) => holds(c, scope, inside));
  return holds(condition, scope, inside);
}

/** Whether the condition reads business hours (`inside_business_hours`). */
export function usesHours(condition: Condition): boolean {
  const checks = 'all' in condition ? condition.all : 'any' in condition ? condition.any : [condition];
  return checks.some((c) => 'inside_business_hours' in c);
}
