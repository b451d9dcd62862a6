import type { RunStep } from '../../server-types';

/** The step as the published version defined it, where the run's version is known. */
export type StepDefinition = { id: string; type: string } & Record<string, unknown>;

const UNITS: Record<string, string> = { s: 's', m: 'min', h: 'h', d: 'days' };
const quote = (v: unknown) => `“${String(v).length > 60 ? `${String(v).slice(0, 57)}…` : String(v)}”`;
const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const then = (s: RunStep) => (s.next_step ? ` → ${s.next_step}` : '');

function done(s: RunStep, d: StepDefinition | undefined): string {
  const o = s.outcome;
  switch (s.type) {
    case 'send_template': {
      const t = d?.template as { name?: string; language?: string } | undefined;
      return `Sent template ${t?.name ? quote(t.name) : ''}${t?.language ? ` (${t.language})` : ''}`.trim();
    }
    case 'send_text':
      return `Sent the text ${d?.text ? quote(d.text) : ''}`.trim();
    case 'send_message': {
      const type = (d?.message as { type?: string } | undefined)?.type;
      return type ? `Sent a ${type} message` : 'Sent a message';
    }
    case 'wait': {
      const m = /^(\d+)([smhd])$/.exec(String(d?.duration ?? ''));
      return m ? `Waited ${m[1]} ${UNITS[m[2]!]}` : `Waited until ${when(String(o.until))}`;
    }
    case 'add_tag':
      return `Tag ${quote(o.tag)} added`;
    case 'remove_tag':
      return `Tag ${quote(o.tag)} removed`;
    case 'set_trait':
      return `Trait ${quote(o.key)} set to ${quote(o.value)}`;
    case 'condition':
      return `Condition ${o.result ? 'true' : 'false'}${s.next_step ? ` → ${s.next_step}` : ' → the run ended'}`;
    case 'http_request': {
      const method = String(d?.method ?? 'POST');
      return `Called ${method} ${d?.url ? String(d.url) : 'the URL'}: HTTP ${String(o.status_code)}`;
    }
    case 'update_lead_status':
      return `Lead status set to ${quote(o.status)}`;
    case 'ask':
      if (o.timed_out) return `No answer came in time${then(s) || ' → the run ended'}`;
      if (o.invalid)
        return `No valid answer after ${String(o.attempts)} tries${then(s) || ' → the run ended'}`;
      return `Answered ${quote(o.answer)}${then(s)}`;
    case 'assign':
      return o.handed_back
        ? `Handed back by a teammate${then(s)}`
        : o.assignee_id
          ? 'Conversation assigned to a teammate'
          : 'Conversation put in the unassigned queue';
    case 'resolve':
      return 'Conversation resolved';
    default:
      return 'Done';
  }
}

/** What a step did, in a sentence: "Sent template “welcome” (en)", "Waited 2 h", "Condition true → vip". */
export function stepSentence(s: RunStep, d?: StepDefinition): string {
  switch (s.status) {
    case 'done':
      return done(s, d);
    case 'skipped': {
      const reason = typeof s.outcome.reason === 'string' ? s.outcome.reason : 'no reason was recorded';
      const after = s.next_step ? ` It went on to ${s.next_step}.` : ' The run ended here.';
      const windowed = s.type === 'send_text' || s.type === 'send_message' || s.type === 'ask';
      return `Skipped because ${reason}.${windowed ? after : ''}`;
    }
    case 'waiting':
      if (s.type === 'ask') return `Waiting for the answer until ${when(String(s.wait_until))}`;
      if (s.type === 'assign') return 'Waiting for a teammate to hand the conversation back';
      return s.wait_until ? `Waiting until ${when(s.wait_until)}${then(s)}` : 'Waiting';
    case 'failed':
      return `Failed: ${s.error ?? 'no reason was recorded'}`;
    default:
      return 'Running…';
  }
}
