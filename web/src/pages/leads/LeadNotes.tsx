import { useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api, formatDate } from '../../api';
import type { LeadNote } from '../../server-types';
import { Card } from '../../ui/Card';
import { Field } from '../../ui/Field';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

/** A lead's notes, oldest first, each with who wrote it and when, and a box to add one. */
export function LeadNotes({
  leadId,
  notes,
  onAdded,
}: {
  leadId: string;
  notes: LeadNote[];
  onAdded: () => void;
}) {
  const [body, setBody] = useState('');
  const add = useAction();
  const save = () =>
    add.run(async () => {
      if (!body.trim()) throw new Error('Write something in the note.');
      await api('POST', `/leads/${leadId}/notes`, { body });
      setBody('');
      onAdded();
    });
  return (
    <Card title="Notes" description="For the team: the lead never sees them.">
      {notes.length === 0 ? (
        <p className="muted small">No notes yet.</p>
      ) : (
        <ul className="list notes">
          {notes.map((n) => (
            <li key={n.id} className="note">
              <p className="note-body">{n.body}</p>
              <div className="small muted">
                {n.author_name ?? 'A former member'} · {formatDate(n.created_at)}
              </div>
            </li>
          ))}
        </ul>
      )}
      <form className="stack" onSubmit={submitHandler(save)}>
        <Field label="Add a note" error={add.fieldErrors.body ?? add.error ?? undefined}>
          {(id) => (
            <textarea
              id={id}
              rows={3}
              value={body}
              maxLength={FIELD_LIMITS.leadNote}
              onChange={(e) => setBody(e.target.value)}
            />
          )}
        </Field>
        <div>
          <button type="submit" className="btn primary" disabled={add.busy}>
            Add note
          </button>
        </div>
      </form>
    </Card>
  );
}
