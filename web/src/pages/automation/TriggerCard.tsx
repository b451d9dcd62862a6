import { Card } from '../../ui/Card';
import type { Kind } from '../Automations';
import { FormPicker } from './FormPicker';
import { MessageTriggerFields } from './MessageTriggerFields';
import type { Definition, MessageReceived } from './model';

/** The trigger in words, for its node on the graph. */
export function triggerText(def: Definition): string {
  const t = def.trigger;
  switch (t.type) {
    case 'event':
      return `Event “${t.event || '…'}”`;
    case 'webhook':
      return 'Its webhook URL is called';
    case 'form_submitted':
      return t.form_id ? 'A form is submitted' : 'Any form is submitted';
    case 'lead_created':
      return 'Any lead is created';
    case 'message_received': {
      const what = t.keywords?.length
        ? `${t.match === 'contains' ? 'a message holding' : 'a message'} ${t.keywords.map((k) => `“${k}”`).join(' or ')}`
        : t.payloads?.length
          ? `a tap on ${t.payloads.join(' or ')}`
          : 'any message';
      const when = t.first_message
        ? ', the first ever'
        : t.after_silence
          ? `, after ${t.after_silence} of silence`
          : '';
      const hours = t.hours ? `, ${t.hours} business hours` : '';
      return `A customer writes ${what}${when}${hours}`;
    }
  }
}

/** The name and what starts the automation. `problems` are the trigger's by field, and the name's. */
export function TriggerCard({
  kind,
  def,
  problems,
  onChange,
}: {
  kind: Kind;
  def: Definition;
  problems: Record<string, string>;
  onChange: (def: Definition) => void;
}) {
  const trigger = def.trigger;
  return (
    <Card title="Name and trigger">
      <div className="grid-fields" id="trigger-fields">
        <label className="field">
          <span>Name</span>
          <input
            value={def.name}
            maxLength={200}
            onChange={(e) => onChange({ ...def, name: e.target.value })}
          />
          {problems.name && <span className="field-error">{problems.name}</span>}
        </label>
        {kind === 'flow' ? (
          <label className="field">
            <span>Starts when</span>
            <select
              value={trigger.type === 'message_received' ? 'message_received' : 'event'}
              onChange={(e) => {
                const { on_teammate_reply: _, ...rest } = def;
                onChange(
                  e.target.value === 'message_received'
                    ? { ...rest, trigger: { type: 'message_received' } }
                    : { ...rest, trigger: { type: 'event', event: '' } },
                );
              }}
            >
              <option value="event">your system tracks an event</option>
              <option value="message_received">a customer writes</option>
            </select>
          </label>
        ) : (
          <label className="field">
            <span>Starts when</span>
            <select
              value={trigger.type}
              onChange={(e) => onChange({ ...def, trigger: { type: e.target.value as 'webhook' } })}
            >
              <option value="webhook">its webhook URL is called</option>
              <option value="form_submitted">a form is submitted</option>
              <option value="lead_created">any lead is created</option>
            </select>
          </label>
        )}
        {trigger.type === 'event' && (
          <label className="field">
            <span>When this event is tracked</span>
            <input
              value={trigger.event}
              placeholder="signup"
              aria-invalid={Boolean(problems.event)}
              onChange={(e) => onChange({ ...def, trigger: { type: 'event', event: e.target.value } })}
            />
            {problems.event && <span className="field-error">{problems.event}</span>}
          </label>
        )}
        {trigger.type === 'form_submitted' && (
          <FormPicker
            value={trigger.form_id}
            onChange={(form_id) =>
              onChange({ ...def, trigger: { type: 'form_submitted', ...(form_id ? { form_id } : {}) } })
            }
          />
        )}
      </div>
      {trigger.type === 'message_received' && (
        <MessageTriggerFields
          def={def as Definition & { trigger: MessageReceived }}
          problems={problems}
          onChange={onChange}
        />
      )}
      {problems[''] && <p className="field-error">{problems['']}</p>}
      {trigger.type === 'event' && (
        <p className="small muted">
          Track it with <code>POST /api/v1/events</code> and{' '}
          <code>{`{"phone": "…", "event": "${trigger.event || 'signup'}"}`}</code>. Only published flows
          start.
        </p>
      )}
    </Card>
  );
}
