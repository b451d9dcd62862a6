import { isObject, type Json, list, str } from './types';

const coordinate = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** A shared location: its name and address, the coordinates, and a link to see it on a map. */
export function LocationContent({ location }: { location: Json }) {
  const lat = coordinate(location.latitude);
  const lon = coordinate(location.longitude);
  const map =
    lat !== undefined && lon !== undefined
      ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`
      : undefined;
  return (
    <div className="location">
      <div>
        <span aria-hidden="true">📍 </span>
        <strong>{str(location.name) ?? 'Location'}</strong>
      </div>
      {str(location.address) && <div>{str(location.address)}</div>}
      {map && (
        <div className="small">
          {lat}, {lon} ·{' '}
          <a href={map} target="_blank" rel="noopener noreferrer">
            Open in a map
          </a>
        </div>
      )}
    </div>
  );
}

/** Shared contact cards: each one's name, phone numbers and e-mail addresses. */
export function ContactsContent({ contacts }: { contacts: Json[] }) {
  return (
    <ul className="shared-contacts" aria-label="Shared contacts">
      {contacts.map((c, i) => {
        const name = (c.name ?? {}) as Json;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the cards' order is fixed
          <li key={i}>
            <strong>{str(name.formatted_name) ?? str(name.first_name) ?? 'A contact'}</strong>
            {list(c.phones).map((p) => (
              <div key={str(p.phone)} className="small">
                {str(p.phone)}
                {str(p.type) && <span className="muted"> ({str(p.type)?.toLowerCase()})</span>}
              </div>
            ))}
            {list(c.emails).map((e) => (
              <div key={str(e.email)} className="small">
                {str(e.email)}
              </div>
            ))}
            {list(c.urls).map((u) => (
              <div key={str(u.url)} className="small">
                {str(u.url)}
              </div>
            ))}
            {isObject(c.org) && str(c.org.company) && <div className="small muted">{str(c.org.company)}</div>}
          </li>
        );
      })}
    </ul>
  );
}
