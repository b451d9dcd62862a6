import { useState } from 'react';
import type { BroadcastPreview } from '../../server-types';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field } from '../../ui/Field';
import { Bubble } from '../templates/Bubble';
import { type BubbleModel, component, type Template } from '../templates/types';
import type { SampleContact, Values } from './types';
import { useDebouncedPost } from './useDebounced';

type Preview = BroadcastPreview;

/** The server's rendering as the phone shows it: the template's header kind and button kinds, its text. */
function bubbleOf(t: Template, values: Values, r: Preview['rendered']): BubbleModel {
  const header = component(t, 'HEADER');
  const format = (header?.format ?? 'TEXT').toUpperCase();
  const link = values.header && 'link' in values.header ? values.header.link : undefined;
  const types = (component(t, 'BUTTONS')?.buttons ?? []).map((b) => b.type.toUpperCase());
  return {
    ...(header
      ? { header: format === 'TEXT' ? { format, text: r.header ?? '' } : { format, media: link } }
      : {}),
    body: r.body,
    ...(r.footer ? { footer: r.footer } : {}),
    buttons: (r.buttons ?? []).map((text, i) => ({ type: types[i] ?? 'QUICK_REPLY', text })),
  };
}

const who = (c: SampleContact) => (c.name ? `${c.name} (+${c.phone})` : `+${c.phone}`);

/** The message one contact of the audience would get, rendered by the server from the mapping. */
export function PreviewPane({
  template,
  values,
  sample,
  ready,
}: {
  template: Template | undefined;
  values: Values;
  sample: SampleContact[];
  /** Every value is mapped: before that the server has nothing to render. */
  ready: boolean;
}) {
  const [contactId, setContactId] = useState('');
  const chosen = sample.some((c) => c.id === contactId) ? contactId : sample[0]?.id;
  const body =
    template && ready
      ? {
          template: { name: template.name, language: template.language },
          values,
          ...(chosen ? { contact_id: chosen } : {}),
        }
      : null;
  const preview = useDebouncedPost<Preview>('/broadcasts/preview', body);
  return (
    <aside className="template-preview stack" aria-label="Preview">
      <h2 className="small muted">Preview</h2>
      {sample.length > 0 && (
        <Field label="For the contact">
          {(id) => (
            <select id={id} value={chosen ?? ''} onChange={(e) => setContactId(e.target.value)}>
              {sample.map((c) => (
                <option key={c.id} value={c.id}>
                  {who(c)}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {!template ? (
        <p className="small muted">Choose a template to see the message.</p>
      ) : !ready ? (
        <p className="small muted">Map each value to see the message.</p>
      ) : preview.error ? (
        <ErrorNote message={preview.error} />
      ) : preview.data ? (
        <div aria-live="polite" className="stack">
          <Bubble
            model={bubbleOf(template, values, preview.data.rendered)}
            label="What this contact will see"
          />
          {preview.data.missing.length > 0 && (
            <p className="small muted" data-testid="preview-missing">
              Fallback or empty for this contact: {preview.data.missing.join(', ')}.
            </p>
          )}
        </div>
      ) : (
        <p className="small muted">Preparing the preview…</p>
      )}
    </aside>
  );
}
