import { useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api, useApi } from '../../api';
import type { QuickReplyList } from '../../server-types';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field, InputField } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

type QuickReply = QuickReplyList['quick_replies'][number];

/** The composer's list of saved answers, filled for this contact ({{name}}...) by the server. */
export function QuickReplyPicker({
  contactId,
  onPick,
}: {
  contactId: string;
  onPick: (text: string) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn small ghost" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Quick replies
      </button>
      {open && (
        <Modal title="Quick replies" onClose={() => setOpen(false)}>
          <PickList
            contactId={contactId}
            onPick={(text) => {
              onPick(text);
              setOpen(false);
            }}
          />
        </Modal>
      )}
    </>
  );
}

function PickList({ contactId, onPick }: { contactId: string; onPick: (text: string) => void }) {
  const list = useApi<QuickReplyList>(`/quick-replies?contact_id=${encodeURIComponent(contactId)}`);
  if (list.loading && !list.data) return <Loading />;
  if (list.error) return <ErrorNote message={list.error} onRetry={list.reload} />;
  const items = list.data?.quick_replies ?? [];
  if (items.length === 0) {
    return (
      <p className="muted">No quick replies yet: add them with “Quick replies” at the top of the inbox.</p>
    );
  }
  return (
    <ul className="quick-replies">
      {items.map((r) => (
        <li key={r.id}>
          <button type="button" className="quick-reply" onClick={() => onPick(r.filled ?? r.text)}>
            <strong>{r.title}</strong>
            <span className="small muted pre">{r.filled ?? r.text}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The inbox's header button: the workspace's quick replies, added, changed and deleted. */
export function QuickRepliesButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn ghost small" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Manage quick replies
      </button>
      {open && (
        <Modal title="Manage quick replies" onClose={() => setOpen(false)}>
          <Manager />
        </Modal>
      )}
    </>
  );
}

function Manager() {
  const list = useApi<QuickReplyList>('/quick-replies');
  const [editing, setEditing] = useState<QuickReply | null>(null);
  const remove = useAction();
  if (list.loading && !list.data) return <Loading />;
  if (list.error) return <ErrorNote message={list.error} onRetry={list.reload} />;
  return (
    <>
      <ul className="quick-replies">
        {list.data?.quick_replies.map((r) => (
          <li key={r.id} className="quick-reply-row">
            <div>
              <strong>{r.title}</strong>
              <div className="small muted pre">{r.text}</div>
            </div>
            <div className="actions">
              <button type="button" className="btn small ghost" onClick={() => setEditing(r)}>
                Edit<span className="sr-only"> {r.title}</span>
              </button>
              <button
                type="button"
                className="btn small ghost danger"
                onClick={() => {
                  if (!confirm(`Delete the quick reply “${r.title}”?`)) return;
                  void remove.run(async () => {
                    await api('DELETE', `/quick-replies/${r.id}`);
                    list.reload();
                  });
                }}
              >
                Delete<span className="sr-only"> {r.title}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
      {remove.error && <ErrorNote message={remove.error} />}
      <QuickReplyForm
        key={editing?.id ?? 'new'}
        editing={editing}
        onSaved={() => {
          setEditing(null);
          list.reload();
        }}
      />
    </>
  );
}

function QuickReplyForm({ editing, onSaved }: { editing: QuickReply | null; onSaved: () => void }) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [text, setText] = useState(editing?.text ?? '');
  const { busy, error, fieldErrors, run } = useAction();
  const save = () =>
    run(async () => {
      if (editing) await api('PUT', `/quick-replies/${editing.id}`, { title, text });
      else await api('POST', '/quick-replies', { title, text });
      setTitle('');
      setText('');
      onSaved();
    });
  const fieldError = fieldErrors.title ?? fieldErrors.text;
  return (
    <form className="stack" onSubmit={submitHandler(save)}>
      <h3>{editing ? `Edit “${editing.title}”` : 'New quick reply'}</h3>
      <InputField
        label="Title"
        required
        maxLength={FIELD_LIMITS.quickReplyTitle}
        value={title}
        error={fieldErrors.title}
        onChange={(e) => setTitle(e.target.value)}
      />
      <Field
        label="Text"
        hint="{{name}}, {{first_name}}, {{phone}} and {{email}} are filled from the contact."
        error={fieldErrors.text}
      >
        {(id) => (
          <textarea
            id={id}
            rows={3}
            required
            maxLength={FIELD_LIMITS.quickReplyText}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      {error && !fieldError && <ErrorNote message={error} />}
      <div className="actions">
        <button type="submit" className="btn primary" disabled={busy}>
          {editing ? 'Save quick reply' : 'Add quick reply'}
        </button>
      </div>
    </form>
  );
}
