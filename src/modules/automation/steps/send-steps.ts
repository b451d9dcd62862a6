import { ApiError } from '../../../api/errors.js';
import type { SendMessageBody } from '../../messaging/schemas.js';
import { type SendResult, sendMessage } from '../../messaging/send-message.js';
import { messageProblems, type RichMessage, type TemplateStep } from '../definition.js';
import { interpolate, lookup, type Scope } from '../interpolate.js';
import { PermanentStepError, type StepInput, type StepOutcome } from './step.js';
import { templateValues } from './template-values.js';

const NO_PHONE = Symbol('no phone');
// Why a step sent nothing, as the run shows it: `code` for the app, `reason` in words.
const SKIPPED = {
  no_phone: 'the run has no contact with a phone to send to (a lead that came without one)',
  outside_window: 'the 24-hour window was closed: the contact has not written in the last 24 hours',
  opted_out: 'the contact opted out of marketing messages',
} as const;
const skipped = (code: keyof typeof SKIPPED, branch?: string | null): StepOutcome => ({
  status: 'skipped',
  outcome: { sent: false, code, reason: SKIPPED[code] },
  ...(branch === undefined ? {} : { branch }),
});

/**
 * Sends through the same path as POST /messages, keyed by the run step: the message is stored once
 * under that key, so a step run again after a crash finds it instead of sending a second one.
 */
async function send(
  input: StepInput,
  body: Omit<SendMessageBody, 'to'>,
): Promise<SendResult | ApiError | typeof NO_PHONE> {
  const phone = lookup(input.scope, 'contact.phone');
  if (typeof phone !== 'string') return NO_PHONE;
  const { rows } = await input.ctx.db.query<{ default_country_code: string | null }>(
    'SELECT default_country_code FROM workspaces WHERE id = $1',
    [input.workspaceId],
  );
  try {
    return await sendMessage(
      input.ctx,
      { workspaceId: input.workspaceId, defaultCountryCode: rows[0]?.default_country_code ?? null },
      { to: `+${phone}`, ...body },
      { sourceKey: input.key },
    );
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

export async function sendTemplate(input: StepInput, template: TemplateStep): Promise<StepOutcome> {
  const empty: string[] = [];
  const values = templateValues(template, (value, part) => {
    const missing: string[] = [];
    const filled = interpolate(value, input.scope, missing);
    if (filled.trim() === '') empty.push(`${part}${missing.length ? ` (no ${missing.join(', ')})` : ''}`);
    else if (/\.(latitude|longitude)$/.test(part) && !Number.isFinite(Number(filled)))
      empty.push(`${part} (not a number)`);
    return filled;
  });
  if (empty.length) {
    throw new PermanentStepError(
      `empty or invalid once its placeholders are filled: ${empty.join(', ')}; ` +
        'give a fallback such as {{contact.name | "there"}}',
    );
  }
  const result = await send(input, {
    type: 'template',
    template: { name: template.name, language: template.language, ...values },
  });
  if (result === NO_PHONE) throw new PermanentStepError(SKIPPED.no_phone);
  if (result instanceof ApiError) {
    if (result.code === 'contact_opted_out') return skipped('opted_out');
    throw new PermanentStepError(`${result.code}: ${result.message}`);
  }
  return { status: 'done', outcome: { message_id: result.id, message_status: result.status } };
}

/** Every string in a value with its placeholders filled; numbers and the rest as they are. */
function fill<T>(value: T, scope: Scope): T {
  if (typeof value === 'string') return interpolate(value, scope) as T;
  if (Array.isArray(value)) return value.map((v) => fill(v, scope)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, scope)])) as T;
  return value;
}

/**
 * A media, interactive or location message, filled from the run, then held to POST /messages' schema
 * (a value too long or empty once filled fails the step) and sent like free text.
 */
export async function sendRich(
  input: StepInput,
  message: RichMessage,
  notSent: string | null,
): Promise<StepOutcome> {
  const filled = fill(message, input.scope);
  const problems = messageProblems(filled);
  if (problems.length)
    throw new PermanentStepError(`once its placeholders are filled, ${problems.join('; ')}`);
  return windowed(await send(input, filled), notSent);
}

/**
 * Free text goes out only inside the 24-hour window, and only to a contact with a phone; otherwise the
 * step is skipped with its reason and takes its "not sent" branch (the run ends there without one).
 */
export async function sendText(input: StepInput, text: string, notSent: string | null): Promise<StepOutcome> {
  const body = interpolate(text, input.scope).slice(0, 4096);
  if (body.trim() === '') throw new PermanentStepError('the text is empty once its placeholders are filled');
  return windowed(await send(input, { type: 'text', text: body }), notSent);
}

function windowed(result: SendResult | ApiError | typeof NO_PHONE, notSent: string | null): StepOutcome {
  if (result === NO_PHONE) return skipped('no_phone', notSent);
  if (result instanceof ApiError) {
    if (result.code !== 'outside_window') throw new PermanentStepError(`${result.code}: ${result.message}`);
    return skipped('outside_window', notSent);
  }
  return { status: 'done', outcome: { sent: true, message_id: result.id, message_status: result.status } };
}
