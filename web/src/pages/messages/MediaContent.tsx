import { useEffect, useState } from 'react';
import { type Json, str } from './types';

const RECHECKS = 6;
const RECHECK_MS = 10_000;

const KIND: Record<string, string> = {
  image: 'Image',
  video: 'Video',
  audio: 'Voice or audio',
  document: 'Document',
  sticker: 'Sticker',
};

/** Where an inbound file's download stands, as the conversation says (null: not downloaded by Parley). */
interface Download {
  status: 'pending' | 'stored' | 'refused' | 'removed' | null;
  size: number | null;
}

// Why a file is not shown, as its download's status says.
const MISSING: Record<string, string> = {
  removed: 'removed by the data retention setting',
  refused: 'could not be downloaded from WhatsApp',
  stored: 'not available',
  unknown: 'not available yet',
};

const size = (bytes: number | null) =>
  bytes === null
    ? null
    : bytes < 1024 * 1024
      ? `${Math.max(1, Math.round(bytes / 1024))} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Image, video, audio, document or sticker, served by Parley from its own store. Until the file is
 * stored (or when it cannot be), a placeholder says so with what the message told about it. An
 * inbound file is asked for only once the conversation says it is stored (it is drawn again then,
 * live), so a download under way fails no request; other files are looked for a few times.
 */
export function MediaContent({
  messageId,
  kind,
  media,
  download,
}: {
  messageId: string;
  kind: string;
  media: Json;
  download?: Download;
}) {
  const src = `/api/app/messages/${encodeURIComponent(messageId)}/media`;
  const known = download?.status ?? null;
  const [found, setState] = useState<'checking' | 'ready' | 'missing'>('checking');
  const state =
    known === 'stored' && found !== 'missing'
      ? 'ready'
      : known === 'refused' || known === 'removed'
        ? 'missing'
        : found;
  const [tries, setTries] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new try asks again
  useEffect(() => {
    if (known !== null) return;
    let live = true;
    fetch(src, { method: 'HEAD', credentials: 'same-origin' })
      .then((res) => live && setState(res.ok ? 'ready' : 'missing'))
      .catch(() => live && setState('missing'));
    return () => {
      live = false;
    };
  }, [src, tries, known]);
  // A file still being fetched from the network is looked for again, a few times, while the page is open.
  useEffect(() => {
    if (known !== null || state !== 'missing' || tries >= RECHECKS) return;
    const timer = setTimeout(() => setTries((n) => n + 1), RECHECK_MS);
    return () => clearTimeout(timer);
  }, [state, tries, known]);
  const caption = str(media.caption);
  const filename = str(media.filename);
  const label = KIND[kind] ?? 'Attachment';
  const missing = () => setState('missing');
  return (
    <figure className="media">
      {known === 'pending' ? (
        <div className="media-missing" role="img" aria-label={`${label} downloading`}>
          <strong>{label}</strong>
          {filename && <div className="small">{filename}</div>}
          <div className="small muted">
            {[str(media.mime_type), size(download?.size ?? null), 'Downloading…'].filter(Boolean).join(' · ')}
          </div>
        </div>
      ) : state === 'missing' ? (
        <div className="media-missing" role="img" aria-label={`${label} ${MISSING[known ?? 'unknown']}`}>
          <strong>{label}</strong> — {MISSING[known ?? 'unknown']}
          {filename && <div className="small">{filename}</div>}
          {str(media.mime_type) && <div className="small muted">{str(media.mime_type)}</div>}
        </div>
      ) : state === 'checking' ? (
        <div className="media-missing small muted">Loading {label.toLowerCase()}…</div>
      ) : kind === 'image' || kind === 'sticker' ? (
        <img
          src={src}
          alt={caption ?? label}
          className={kind === 'sticker' ? 'sticker' : undefined}
          onError={missing}
        />
      ) : kind === 'video' ? (
        // biome-ignore lint/a11y/useMediaCaption: a customer's video comes without captions
        <video src={src} controls preload="metadata" onError={missing} />
      ) : kind === 'audio' ? (
        // biome-ignore lint/a11y/useMediaCaption: a customer's voice note comes without captions
        <audio src={src} controls preload="metadata" onError={missing} aria-label={label} />
      ) : (
        <a href={src} download={filename ?? true}>
          {filename ?? 'Download the document'}
        </a>
      )}
      {caption && <figcaption className="pre">{caption}</figcaption>}
    </figure>
  );
}
