import type { AskStep, RichMessage } from '../definition.js';
import { sendRich, sendText } from './send-steps.js';
import { PermanentStepError, type StepInput, type StepOutcome } from './step.js';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** How long an ask waits for its answer: its `timeout`, 24 hours by default. */
export function answerDeadline(step: AskStep, from = Date.now()): Date {
  const timeout = step.timeout ?? '24h';
  const unit = timeout.slice(-1) as keyof typeof UNIT_MS;
  return new Date(from + Number.parseInt(timeout, 10) * UNIT_MS[unit]);
}

/** The question as sent: plain text, or interactive reply buttons or a list with `body` as its text. */
function question(step: AskStep, body: string): RichMessage | null {
  if (step.buttons)
    return {
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: body },
        action: {
          buttons: step.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })),
        },
      },
    } as RichMessage;
  if (step.list)
    return {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: body },
        action: {
          button: step.list.button,
          sections: step.list.sections.map((s) => ({
            ...(s.title ? { title: s.title } : {}),
            rows: s.rows.map((r) => ({
              id: r.id,
              title: r.title,
              ...(r.description ? { description: r.description } : {}),
            })),
          })),
        },
      },
    } as RichMessage;
  return null;
}

/**
 * Sends an ask's question (or, on `retry`, its retry text with the same options) by the path
 * send_text and send_message take: inside the 24-hour window only, once per key.
 */
export async function sendQuestion(input: StepInput, step: AskStep, retry = false): Promise<StepOutcome> {
  const body = retry && step.retry_text ? step.retry_text : step.text;
  const rich = question(step, body);
  const notSent = step.not_sent ?? null;
  return rich ? sendRich(input, rich, notSent) : sendText(input, body, notSent);
}

/**
 * The ask step: the run takes hold of the conversation (one bot talks to a contact at a time), then
 * the question goes out and the run waits for the answer until the deadline.
 */
export async function ask(input: StepInput, step: AskStep): Promise<StepOutcome> {
  if (!input.contactId) throw new PermanentStepError('the run has no contact to ask');
  let took: boolean;
  try {
    const { rows } = await input.db.query(
      `UPDATE runs SET holds_conversation = true
       WHERE workspace_id = $1 AND id = $2 AND NOT holds_conversation RETURNING id`,
      [input.workspaceId, input.runId],
    );
    took = rows.length > 0;
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw new PermanentStepError('another bot is talking to this contact');
    throw err;
  }
  const sent = await sendQuestion(input, step);
  if (sent.status === 'done') return { ...sent, awaits: answerDeadline(step) };
  // Not sent (the window is closed): a conversation this question took is not kept from another bot.
  if (took)
    await input.db.query('UPDATE runs SET holds_conversation = false WHERE workspace_id = $1 AND id = $2', [
      input.workspaceId,
      input.runId,
    ]);
  return sent;
}
