import { fileTypeFromBuffer } from 'file-type';
import { Type } from 'typebox';

export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker';
export const MEDIA_KINDS: readonly MediaKind[] = ['image', 'video', 'audio', 'document', 'sticker'];
/** A media kind in a schema: what an upload answers, what a reply attaches. */
export const MediaKindSchema = Type.Union([
  Type.Literal('image'),
  Type.Literal('video'),
  Type.Literal('audio'),
  Type.Literal('document'),
  Type.Literal('sticker'),
]);

const MB = 1_000_000;

/**
 * Meta's supported media types and their size limits (Cloud API "Supported media types"), in decimal
 * megabytes as Meta writes them, so a file Parley passes is never one Meta refuses for its size.
 * Animated stickers may reach 500 KB, static ones 100 KB.
 */
const SUPPORTED: Record<string, { kind: MediaKind; maxBytes: number }> = {
  'audio/aac': { kind: 'audio', maxBytes: 16 * MB },
  'audio/amr': { kind: 'audio', maxBytes: 16 * MB },
  'audio/mpeg': { kind: 'audio', maxBytes: 16 * MB },
  'audio/mp4': { kind: 'audio', maxBytes: 16 * MB },
  'audio/ogg': { kind: 'audio', maxBytes: 16 * MB },
  'text/plain': { kind: 'document', maxBytes: 100 * MB },
  'application/pdf': { kind: 'document', maxBytes: 100 * MB },
  'application/msword': { kind: 'document', maxBytes: 100 * MB },
  'application/vnd.ms-excel': { kind: 'document', maxBytes: 100 * MB },
  'application/vnd.ms-powerpoint': { kind: 'document', maxBytes: 100 * MB },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    kind: 'document',
    maxBytes: 100 * MB,
  },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
    kind: 'document',
    maxBytes: 100 * MB,
  },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': {
    kind: 'document',
    maxBytes: 100 * MB,
  },
  'image/jpeg': { kind: 'image', maxBytes: 5 * MB },
  'image/png': { kind: 'image', maxBytes: 5 * MB },
  'image/webp': { kind: 'sticker', maxBytes: 500_000 },
  'video/mp4': { kind: 'video', maxBytes: 16 * MB },
  'video/3gpp': { kind: 'video', maxBytes: 16 * MB },
};

export const STATIC_STICKER_MAX_BYTES = 100_000;

/** The largest file of any supported type: what an upload may stream before its type is known. */
export const MAX_MEDIA_BYTES = 100 * MB;

/** The bytes read from a file's start to tell its type (a zip's directory of an Office file may need them). */
export const SNIFF_BYTES = 64 * 1024;

// Names the same type goes by: what the sniffer says, or what a client or Meta's own list writes.
const ALIASES: Record<string, string> = {
  'video/3gp': 'video/3gpp',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/opus': 'audio/ogg',
  'audio/mp3': 'audio/mpeg',
  'image/jpg': 'image/jpeg',
};

const OLD_OFFICE = new Set([
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
]);

export const canonicalMime = (mime: string) => {
  const bare = mime.split(';')[0]!.trim().toLowerCase();
  return ALIASES[bare] ?? bare;
};

export const supportedMime = (mime: string) => SUPPORTED[canonicalMime(mime)];

export type Sniffed =
  | { ok: true; mime: string; kind: MediaKind; maxBytes: number }
  | { ok: false; message: string };

/**
 * The type of a file as its bytes say, checked against Meta's list and the type the sender declared.
 * Formats that carry no signature are taken as declared only when the bytes fit: plain text (no NUL
 * bytes), an Office Open XML document (a zip), an old Office document (a compound file).
 */
export async function sniffMedia(head: Buffer, declared: string | undefined): Promise<Sniffed> {
  const given = declared ? canonicalMime(declared) : undefined;
  const found = await fileTypeFromBuffer(head);
  let mime = found ? canonicalMime(found.mime) : undefined;
  if (given && mime !== given) {
    const fits =
      (mime === 'application/zip' && given.startsWith('application/vnd.openxmlformats-officedocument.')) ||
      (mime === 'application/x-cfb' && OLD_OFFICE.has(given)) ||
      (mime === undefined && given === 'text/plain' && !head.includes(0));
    if (fits) mime = given;
  }
  if (!mime) {
    return {
      ok: false,
      message: given
        ? `The file's content is not ${given}; send a file of a type WhatsApp supports`
        : 'The file is of a type WhatsApp does not support (or not recognised); give its `type` if it is plain text',
    };
  }
  if (given && given !== mime)
    return { ok: false, message: `The file's content is ${mime}, not the declared ${given}` };
  const supported = SUPPORTED[mime];
  if (!supported) return { ok: false, message: `WhatsApp does not take ${mime} files` };
  const maxBytes =
    supported.kind === 'sticker' && !animatedWebp(head) ? STATIC_STICKER_MAX_BYTES : supported.maxBytes;
  return { ok: true, mime, kind: supported.kind, maxBytes };
}

/** A WebP whose extended header (VP8X) sets the animation flag. */
function animatedWebp(head: Buffer): boolean {
  return head.toString('latin1', 12, 16) === 'VP8X' && ((head[20] ?? 0) & 0x02) !== 0;
}

export const describeLimit = (bytes: number) =>
  bytes >= MB ? `${bytes / MB} MB` : `${Math.round(bytes / 1000)} KB`;
