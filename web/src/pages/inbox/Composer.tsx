import { useRef, useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api, formatDate, upload } from '../../api';
import { Link } from '../../router';
import type { Conversation } from '../../server-types';
import { ErrorNote } from '../../ui/ErrorNote';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';
import { SendTemplate } from '../messages/SendTemplate';
import { EmojiPicker } from './EmojiPicker';
import { focusComposer, useKeys } from './keys';
import { MentionTextarea } from './Mentions';
import { withMentionTokens } from './mention-text';
import { typingReply } from './Presence';
import { QuickReplyPicker } from './QuickReplies';

interface Uploaded {
  id: string;
  kind: 'image' | 'video' | 'audio' | 'document' | 'sticker';
  file_name: string;
}

const TEXT_MAX = 4096;
const CAPTION_MAX = 1024;
// What WhatsApp takes (POST /media says which, and the file's size against its kind's limit).
const ACCEPT =
  'image/jpeg,image/png,video/mp4,video/3gpp,audio/aac,audio/amr,audio/mpeg,audio/mp4,audio/ogg,application/pdf,text/plain,.doc,.docx,.xls,.xlsx,.ppt,.pptx';

const MODES = [
  ['reply', 'Reply'],
  ['note', 'Internal note'],
] as const;

/** The reply box (text, quick replies, emoji, an attachment, a template) and the team's internal notes. */
export function Composer({ conv, onSent }: { conv: Conversation; onSent: () => void }) {
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  const write = (next: 'reply' | 'note') => {
    setMode(next);
    requestAnimationFrame(focusComposer);
    return true;
  };
  useKeys({ n: () => write('note'), r: () => write('reply') });
  return (
    <div className="composer">
      <div className="composer-modes" role="tablist" aria-label="Write">
        {MODES.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={mode === id}
            className={mode === id ? 'tab active' : 'tab'}
            onClick={() => setMode(id)}
          >
            {label}
          </button>
        ))}
      </div>
      {mode === 'note' ? <NoteForm conv={conv} onSent={onSent} /> : <ReplyForm conv={conv} onSent={onSent} />}
    </div>
  );
}

function NoteForm({ conv, onSent }: { conv: Conversation; onSent: () => void }) {
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<Parameters<typeof withMentionTokens>[1]>([]);
  const { busy, error, fieldErrors, run } = useAction();
  const add = () =>
    run(async () => {
      await api('POST', `/conversations/${conv.contact.id}/notes`, { text: withMentionTokens(text, picked) });
      setText('');
      setPicked([]);
      onSent();
    });
  return (
    <form className="composer-form note-form" onSubmit={submitHandler(add)}>
      <label htmlFor="note" className="sr-only">
        Note
      </label>
      <MentionTextarea
        id="note"
        maxLength={FIELD_LIMITS.conversationNote}
        placeholder="Only your team sees this; @ mentions a teammate"
        value={text}
        onChange={setText}
        picked={picked}
        onPicked={setPicked}
        onSubmit={() => {
          if (text.trim()) add();
        }}
      />
      <button type="submit" className="btn" disabled={busy || !text.trim()}>
        Add note
      </button>
      {(fieldErrors.text ?? error) && <p className="field-error">{fieldErrors.text ?? error}</p>}
    </form>
  );
}

function ReplyForm({ conv, onSent }: { conv: Conversation; onSent: () => void }) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<Uploaded | null>(null);
  const [showTemplates, setShowTemplates] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { busy, error, run } = useAction();
  const uploading = useAction();
  const path = `/conversations/${conv.contact.id}/messages`;
  if (!conv.number_connected) {
    return (
      <div className="composer-note">
        Connect a WhatsApp number in <Link href="/settings/number">Settings › Connected number</Link> to send
        messages.
      </div>
    );
  }
  const insert = (value: string) => {
    const el = box.current;
    const at = el?.selectionStart ?? text.length;
    const next = `${text.slice(0, at)}${value}${text.slice(el?.selectionEnd ?? at)}`.slice(0, TEXT_MAX);
    setText(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + value.length, at + value.length);
    });
  };
  const send = () =>
    run(async () => {
      const caption = text.trim() ? text.slice(0, CAPTION_MAX) : undefined;
      const body = file
        ? {
            attachment: {
              kind: file.kind,
              id: file.id,
              ...(caption && file.kind !== 'audio' && file.kind !== 'sticker' ? { caption } : {}),
              ...(file.kind === 'document' ? { filename: file.file_name.slice(0, 240) } : {}),
            },
          }
        : { text };
      await api('POST', path, body);
      setText('');
      setFile(null);
      onSent();
    });
  const attach = (chosen: File) =>
    uploading.run(async () => {
      const form = new FormData();
      form.append('file', chosen, chosen.name);
      const answer = await upload<Omit<Uploaded, 'file_name'>>('/media', form);
      setFile({ ...answer, file_name: chosen.name });
    });
  const ready = file !== null || text.trim() !== '';
  return (
    <>
      {conv.window.open ? (
        <form className="composer-form" onSubmit={submitHandler(send)}>
          <label htmlFor="reply" className="sr-only">
            Reply
          </label>
          <textarea
            id="reply"
            ref={box}
            rows={2}
            maxLength={file ? CAPTION_MAX : TEXT_MAX}
            placeholder={file ? 'Add a caption (optional)…' : 'Write a reply…'}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              typingReply(conv.contact.id);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && ready) {
                e.preventDefault();
                send();
              }
            }}
          />
          <button type="submit" className="btn primary" disabled={busy || uploading.busy || !ready}>
            Send
          </button>
        </form>
      ) : (
        <div className="composer-note" role="note">
          <strong>Free text is closed.</strong> WhatsApp allows free text only within 24 hours of the
          customer's last message
          {conv.window.closes_at
            ? ` (the window closed ${formatDate(conv.window.closes_at)})`
            : ' (this contact has not written in)'}
          . Send an approved template instead.
        </div>
      )}
      {file && (
        <p className="attachment-chip small">
          📎 {file.file_name}{' '}
          <button type="button" className="btn ghost small" onClick={() => setFile(null)}>
            Remove attachment
          </button>
        </p>
      )}
      {uploading.error && <p className="field-error">{uploading.error}</p>}
      {error && <ErrorNote message={error} />}
      <div className="composer-tools">
        {conv.window.open && (
          <>
            <QuickReplyPicker
              contactId={conv.contact.id}
              onPick={(filled) => setText(filled.slice(0, TEXT_MAX))}
            />
            <EmojiPicker onPick={insert} />
            <button
              type="button"
              className="btn small ghost"
              disabled={uploading.busy}
              onClick={() => fileInput.current?.click()}
            >
              {uploading.busy ? 'Uploading…' : 'Attach a file'}
            </button>
            <input
              ref={fileInput}
              type="file"
              accept={ACCEPT}
              className="sr-only"
              tabIndex={-1}
              aria-label="Attachment"
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                e.target.value = '';
                if (chosen) void attach(chosen);
              }}
            />
          </>
        )}
        <button
          type="button"
          className="btn small ghost"
          onClick={() => setShowTemplates(true)}
          aria-haspopup="dialog"
          data-template-button
        >
          Send a template
        </button>
      </div>
      {showTemplates && (
        <SendTemplate
          path={path}
          onClose={() => setShowTemplates(false)}
          onSent={() => {
            setShowTemplates(false);
            onSent();
          }}
        />
      )}
    </>
  );
}
