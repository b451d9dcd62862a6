import { Field, InputField } from '../../ui/Field';

/** A send_message step's message, in Meta's shape (the server checks it: src/modules/messaging/schemas.ts). */
type Media = { link?: string; id?: string; caption?: string; filename?: string };
type Buttons = {
  type: 'button' | 'list' | 'cta_url';
  body: { text: string };
  action: { buttons?: { type: 'reply'; reply: { id: string; title: string } }[] };
};
type Card = { name: { formatted_name: string }; phones?: { phone: string }[] };
type Location = { latitude: number; longitude: number; name?: string; address?: string };
export type RichMessage = { type: string } & Record<string, unknown>;

const KINDS = [
  ['image', 'Image'],
  ['video', 'Video'],
  ['audio', 'Audio'],
  ['document', 'Document'],
  ['sticker', 'Sticker'],
  ['interactive', 'Reply buttons'],
  ['location', 'Location'],
  ['contacts', 'Contact card'],
] as const;

/** An empty message of this kind. */
export function emptyMessage(kind: string): RichMessage {
  if (kind === 'interactive')
    return { type: kind, interactive: { type: 'button', body: { text: '' }, action: { buttons: [] } } };
  if (kind === 'location') return { type: kind, location: { latitude: 0, longitude: 0 } };
  if (kind === 'contacts') return { type: kind, contacts: [{ name: { formatted_name: '' } }] };
  return { type: kind, [kind]: { link: '' } };
}

/** One line for the graph. */
export function describeMessage(m: RichMessage): string {
  const kind = KINDS.find(([k]) => k === m.type)?.[1] ?? m.type;
  if (m.type === 'interactive') return `${kind}: ${(m.interactive as Buttons).body.text || 'write the text'}`;
  if (m.type === 'location') {
    const l = m.location as Location;
    return `${kind}: ${l.name || `${l.latitude}, ${l.longitude}`}`;
  }
  if (m.type === 'contacts')
    return `${kind}: ${(m.contacts as Card[]).map((c) => c.name.formatted_name).join(', ') || 'give a name'}`;
  const media = m[m.type] as Media;
  return `${kind}: ${media.link || media.id || 'give its link'}`;
}

const hasPlaceholder = (s: string) => s.includes('{{');
const tooLong = (s: string | undefined, max: number, what: string) =>
  s && !hasPlaceholder(s) && s.length > max ? `${what} holds at most ${max} characters.` : undefined;

/** What is wrong with the message as typed, by field (`image.link`), in plain words. */
function checkMessage(m: RichMessage): Record<string, string | undefined> {
  if (m.type === 'interactive') {
    const i = m.interactive as Buttons;
    // Lists and call-to-action buttons are edited through the API, whose answer names what is wrong.
    if (i.type !== 'button') return {};
    const titles = (i.action.buttons ?? []).map((b) => b.reply.title);
    return {
      'interactive.body.text': !i.body.text.trim()
        ? 'Write the text the buttons answer.'
        : tooLong(i.body.text, 1024, 'The text'),
      'interactive.action.buttons':
        titles.length === 0
          ? 'Give at least one button a title.'
          : new Set(titles).size !== titles.length
            ? 'Each button needs a different title.'
            : titles.map((t) => tooLong(t, 20, 'A button title')).find(Boolean),
    };
  }
  if (m.type === 'contacts') {
    const [card] = m.contacts as Card[];
    return {
      'contacts.0.name.formatted_name': !card?.name.formatted_name.trim()
        ? 'Give the name shown on the card.'
        : tooLong(card.name.formatted_name, 512, 'The name'),
    };
  }
  if (m.type === 'location') {
    const l = m.location as Location;
    const between = (v: number, max: number, what: string) =>
      Number.isFinite(v) && Math.abs(v) <= max ? undefined : `${what} is a number from -${max} to ${max}.`;
    return {
      'location.latitude': between(l.latitude, 90, 'Latitude'),
      'location.longitude': between(l.longitude, 180, 'Longitude'),
      'location.name': tooLong(l.name, 1024, 'The name'),
      'location.address': tooLong(l.address, 1024, 'The address'),
    };
  }
  const media = m[m.type] as Media;
  const link = media.link ?? '';
  return {
    [`${m.type}.link`]:
      media.id !== undefined
        ? undefined
        : !link.trim()
          ? 'Give the address of the file.'
          : hasPlaceholder(link) || /^https?:\/\/\S+$/i.test(link)
            ? undefined
            : 'The address starts with https:// (or is a placeholder that fills one in).',
    [`${m.type}.caption`]: tooLong(media.caption, 1024, 'A caption'),
    [`${m.type}.filename`]: tooLong(media.filename, 240, 'The file name'),
  };
}

const PLACEHOLDERS = 'Placeholders such as {{contact.name | there}} are filled in for each contact.';

/**
 * The fields of a "Send media or buttons" step. `problems` are the server's, by field inside the step
 * (`message.image.link`); a problem found here as the user types comes first.
 */
export function RichMessageFields({
  message,
  problems,
  onChange,
}: {
  message: RichMessage;
  problems: Record<string, string>;
  onChange: (m: RichMessage) => void;
}) {
  const found = checkMessage(message);
  const error = (field: string) => found[field] ?? problems[`message.${field}`];
  const kind = message.type;
  const kindField = (
    <Field label="Kind" error={problems.message}>
      {(id) => (
        <select id={id} value={kind} onChange={(e) => onChange(emptyMessage(e.target.value))}>
          {KINDS.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  if (kind === 'interactive') {
    const i = message.interactive as Buttons;
    if (i.type !== 'button')
      return (
        <>
          {kindField}
          <p className="small muted">
            This step sends {i.type === 'list' ? 'a list' : 'a call-to-action URL button'}; edit it through
            the API.
          </p>
        </>
      );
    const titles = [0, 1, 2].map((n) => i.action.buttons?.[n]?.reply.title ?? '');
    const setTitles = (next: string[]) => {
      // A reply's id is its title: what a flow reading the answer compares with.
      const buttons = next
        .filter((t) => t !== '')
        .map((t) => ({ type: 'reply' as const, reply: { id: t, title: t } }));
      onChange({ ...message, interactive: { ...i, action: { buttons } } });
    };
    return (
      <>
        {kindField}
        <Field label="Text" hint={PLACEHOLDERS} error={error('interactive.body.text')}>
          {(id) => (
            <textarea
              id={id}
              rows={3}
              value={i.body.text}
              aria-invalid={Boolean(error('interactive.body.text'))}
              onChange={(e) =>
                onChange({ ...message, interactive: { ...i, body: { text: e.target.value } } })
              }
            />
          )}
        </Field>
        <div className="grid-fields">
          {titles.map((title, n) => (
            <InputField
              // biome-ignore lint/suspicious/noArrayIndexKey: the three button slots are fixed
              key={n}
              label={`Button ${n + 1}${n === 0 ? '' : ' (optional)'}`}
              value={title}
              aria-invalid={Boolean(n === 0 && error('interactive.action.buttons'))}
              onChange={(e) => setTitles(titles.map((t, k) => (k === n ? e.target.value : t)))}
            />
          ))}
        </div>
        {error('interactive.action.buttons') && (
          <p className="field-error">{error('interactive.action.buttons')}</p>
        )}
      </>
    );
  }

  if (kind === 'contacts') {
    const cards = message.contacts as Card[];
    if (cards.length !== 1)
      return (
        <>
          {kindField}
          <p className="small muted">
            This step sends {cards.length} contact cards; edit it through the API.
          </p>
        </>
      );
    const card = cards[0]!;
    const set = (patch: Partial<Card>) => onChange({ ...message, contacts: [{ ...card, ...patch }] });
    return (
      <>
        {kindField}
        <div className="grid-fields">
          <InputField
            label="Name on the card"
            hint={PLACEHOLDERS}
            value={card.name.formatted_name}
            error={error('contacts.0.name.formatted_name')}
            aria-invalid={Boolean(error('contacts.0.name.formatted_name'))}
            onChange={(e) => set({ name: { ...card.name, formatted_name: e.target.value } })}
          />
          <InputField
            label="Phone (optional)"
            value={card.phones?.[0]?.phone ?? ''}
            error={error('contacts.0.phones.0.phone')}
            onChange={(e) => set({ phones: e.target.value ? [{ phone: e.target.value }] : undefined })}
          />
        </div>
      </>
    );
  }

  if (kind === 'location') {
    const l = message.location as Location;
    const set = (patch: Partial<Location>) => onChange({ ...message, location: { ...l, ...patch } });
    const text = (key: 'name' | 'address', label: string) => (
      <InputField
        label={label}
        value={l[key] ?? ''}
        error={error(`location.${key}`)}
        onChange={(e) => set({ [key]: e.target.value || undefined })}
      />
    );
    const number = (key: 'latitude' | 'longitude', label: string) => (
      <InputField
        label={label}
        type="number"
        step="any"
        value={Number.isFinite(l[key]) ? l[key] : ''}
        error={error(`location.${key}`)}
        aria-invalid={Boolean(error(`location.${key}`))}
        onChange={(e) => set({ [key]: e.target.value === '' ? Number.NaN : Number(e.target.value) })}
      />
    );
    return (
      <>
        {kindField}
        <div className="grid-fields">
          {number('latitude', 'Latitude')}
          {number('longitude', 'Longitude')}
          {text('name', 'Name (optional)')}
          {text('address', 'Address (optional)')}
        </div>
      </>
    );
  }

  const media = message[kind] as Media;
  const set = (patch: Partial<Media>) => onChange({ ...message, [kind]: { ...media, ...patch } });
  return (
    <>
      {kindField}
      <InputField
        label="Link to the file"
        hint="An https:// address the network can fetch; placeholders allowed."
        value={media.link ?? ''}
        error={error(`${kind}.link`)}
        aria-invalid={Boolean(error(`${kind}.link`))}
        onChange={(e) => set({ link: e.target.value })}
      />
      {(kind === 'image' || kind === 'video' || kind === 'document') && (
        <Field label="Caption (optional)" hint={PLACEHOLDERS} error={error(`${kind}.caption`)}>
          {(id) => (
            <textarea
              id={id}
              rows={2}
              value={media.caption ?? ''}
              aria-invalid={Boolean(error(`${kind}.caption`))}
              onChange={(e) => set({ caption: e.target.value || undefined })}
            />
          )}
        </Field>
      )}
      {kind === 'document' && (
        <InputField
          label="File name (optional)"
          value={media.filename ?? ''}
          error={error('document.filename')}
          onChange={(e) => set({ filename: e.target.value || undefined })}
        />
      )}
    </>
  );
}
