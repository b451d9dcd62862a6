import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { type CappedBody, readCapped } from '../../../lib/read-capped.js';
import { networkError } from './error-code.js';
import { type OutboundMessage, sendRequestBody } from './send-body.js';
import type {
  CreateTemplateRequest,
  CreateTemplateResponse,
  GraphErrorBody,
  GraphPhoneNumber,
  GraphTemplate,
  SendResponse,
  TemplateListResponse,
} from './types.js';

export interface CloudApiConfig {
  /** e.g. https://graph.facebook.com, or the simulator's /_sim. */
  baseUrl: string;
  version: string;
  accessToken: string;
  timeoutMs: number;
}

// Meta's codes for errors worth retrying: rate limits (4 the app's calls, 80007 the business account's,
// 130429 the number's throughput, 131056 the pair's), temporary service errors (1, 2, 131000, 131016,
// 133004); anything 5xx or a timeout is transient too.
const TRANSIENT_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 133004]);

/** The network took the message (a 2xx) without naming it: no wamid to keep yet. */
const TAKEN_UNNAMED = { wamid: null, waId: null };
const WAMID = /^[\x21-\x7e]{1,256}$/;
const WA_ID = /^\d{4,20}$/;

// Graph answers are a few KiB; the largest, a page of 100 templates with their components, stays
// under a few hundred. Anything past this is not an answer we can read, and is not held in memory.
const MAX_ANSWER_BYTES = 1024 * 1024;
const MAX_TEMPLATE_PAGES = 100;

// Connections to the Graph API (or a simulator), kept open between calls and bounded per origin: a
// send does not pay for a new connection, and a burst queues for one instead of opening hundreds.
const graphAgent = new Agent({ connections: 128 });

export class CloudApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly httpStatus: number,
    readonly transient: boolean,
    /** The request may have reached the network and been acted on: no answer, or an unreadable one. */
    readonly unconfirmed = false,
  ) {
    super(message);
  }
}

// Failures that happen before a request is on the wire: the network cannot have acted on it.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The WhatsApp Cloud API over HTTP: the same code talks to Meta in production and to the simulator. */
export class CloudApiClient {
  constructor(private readonly config: CloudApiConfig) {}

  async send(
    phoneNumberId: string,
    message: OutboundMessage,
  ): Promise<{ wamid: string | null; waId: string | null }> {
    const body = sendRequestBody(message);
    let res: unknown;
    try {
      res = await this.request<unknown>('POST', `/${phoneNumberId}/messages`, body);
    } catch (err) {
      // A 2xx is the network taking the message, whatever its body says: sending it again could
      // send it twice. The status webhook names it by biz_opaque_callback_data and brings the wamid.
      if (err instanceof CloudApiError && err.httpStatus >= 200 && err.httpStatus < 300) return TAKEN_UNNAMED;
      throw err;
    }
    const answer = isObject(res) ? (res as Partial<SendResponse>) : {};
    const first =
      Array.isArray(answer.messages) && isObject(answer.messages[0]) ? answer.messages[0] : undefined;
    const contact =
      Array.isArray(answer.contacts) && isObject(answer.contacts[0]) ? answer.contacts[0] : undefined;
    const wamid = typeof first?.id === 'string' && WAMID.test(first.id) ? first.id : null;
    if (!wamid) return TAKEN_UNNAMED;
    return {
      wamid,
      waId: typeof contact?.wa_id === 'string' && WA_ID.test(contact.wa_id) ? contact.wa_id : null,
    };
  }

  /** Marks an inbound message, and every earlier one from its sender, read (the customer's blue ticks). */
  async markRead(phoneNumberId: string, wamid: string): Promise<void> {
    await this.request<unknown>('POST', `/${phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: wamid,
    });
  }

  async listTemplates(businessAccountId: string): Promise<GraphTemplate[]> {
    const all: GraphTemplate[] = [];
    let after: string | undefined;
    // Meta holds up to 6,000 templates an account: every page of them, with a bound in case a
    // network never stops handing out cursors.
    for (let page = 0; page < MAX_TEMPLATE_PAGES; page++) {
      const query = new URLSearchParams({
        limit: '100',
        fields: 'id,name,language,status,category,components,parameter_format,quality_score,rejected_reason',
      });
      if (after) query.set('after', after);
      const res = await this.request<TemplateListResponse>(
        'GET',
        `/${businessAccountId}/message_templates?${query}`,
      );
      if (!Array.isArray(res?.data))
        throw new CloudApiError('the network answered without a list of templates', 0, 200, true);
      all.push(...res.data);
      after = res.paging?.next ? res.paging.cursors?.after : undefined;
      if (!after) break;
    }
    return all;
  }

  /** Submits a template for review: the network answers with its id and status (PENDING, usually). */
  async createTemplate(
    businessAccountId: string,
    template: CreateTemplateRequest,
  ): Promise<CreateTemplateResponse> {
    return this.request<CreateTemplateResponse>('POST', `/${businessAccountId}/message_templates`, template);
  }

  /**
   * Deletes a template on the network (Meta's `DELETE /{waba-id}/message_templates?name=`): with
   * its id (`hsm_id`) only that language, by name alone every language of it.
   */
  async deleteTemplate(businessAccountId: string, name: string, id: string | null): Promise<void> {
    const query = new URLSearchParams({ name, ...(id ? { hsm_id: id } : {}) });
    const res = await this.request<unknown>('DELETE', `/${businessAccountId}/message_templates?${query}`);
    if (!isObject(res) || res.success !== true)
      throw new CloudApiError('the network did not confirm the deletion', 0, 200, false);
  }

  /** Reads the number with this token: Meta answers 190 for a token it does not accept, 100 for an id it cannot reach. */
  async phoneNumber(phoneNumberId: string): Promise<GraphPhoneNumber> {
    const fields = 'display_phone_number,verified_name,quality_rating,messaging_limit_tier';
    const res = await this.request<unknown>('GET', `/${phoneNumberId}?fields=${fields}`);
    return isObject(res) ? (res as GraphPhoneNumber) : {};
  }

  /** Subscribes the token's app to the business account's webhooks (messages, statuses, templates). */
  async subscribeApp(businessAccountId: string): Promise<void> {
    await this.request<unknown>('POST', `/${businessAccountId}/subscribed_apps`);
  }

  /** Uploads a file for the number to send (Meta's `POST /{phone-number-id}/media`), streamed: answers its media id. */
  async uploadMedia(phoneNumberId: string, file: UploadedFile): Promise<string> {
    const form = multipartUpload(file);
    const res = await this.request<unknown>('POST', `/${phoneNumberId}/media`, undefined, form);
    const id = isObject(res) ? res.id : undefined;
    if ((typeof id !== 'string' && typeof id !== 'number') || !MEDIA_ID.test(String(id)))
      throw new CloudApiError('the network answered the upload without a media id', 0, 200, false);
    return String(id);
  }

  /**
   * Uploads a template's media header sample through Meta's Resumable Upload API and answers its
   * handle (`example.header_handle`): the token's app (`GET /app`), a session (`POST
   * /{app-id}/uploads`), then the bytes (`POST /{upload-id}`, `file_offset`). A broken upload is asked
   * where it stands (`GET /{upload-id}`) and resumed from there, a bounded number of times.
   */
  async uploadHeaderSample(file: SampleFile): Promise<string> {
    if (file.bytes.length < 1 || file.bytes.length > MAX_SAMPLE_BYTES)
      throw new CloudApiError(`a header sample is 1 byte to ${MAX_SAMPLE_BYTES} bytes`, 100, 400, false);
    const app = await this.request<unknown>('GET', '/app?fields=id');
    const appId = isObject(app) && typeof app.id === 'string' && /^\d{1,32}$/.test(app.id) ? app.id : null;
    if (!appId) throw new CloudApiError('the network answered without the app id', 0, 200, false);
    const query = new URLSearchParams({
      file_name: file.fileName,
      file_length: String(file.bytes.length),
      file_type: file.mimeType,
    });
    const session = await this.request<unknown>('POST', `/${appId}/uploads?${query}`);
    const id = isObject(session) && typeof session.id === 'string' ? session.id : '';
    if (!UPLOAD_ID.test(id))
      throw new CloudApiError('the network answered without an upload id', 0, 200, false);
    const oauth = { authorization: `OAuth ${this.config.accessToken}` };
    let offset = 0;
    for (let attempt = 0; ; attempt++) {
      let answer: unknown;
      try {
        answer = await this.request<unknown>(
          'POST',
          `/${id}`,
          undefined,
          { body: chunksOf(file.bytes.subarray(offset)), contentType: 'application/octet-stream' },
          { ...oauth, file_offset: String(offset) },
        );
      } catch (err) {
        if (!(err instanceof CloudApiError) || !err.transient || attempt >= MAX_UPLOAD_RESUMES) throw err;
        answer = null;
      }
      const handle = isObject(answer) && typeof answer.h === 'string' ? answer.h : null;
      if (handle && handle.length <= 1024) return handle;
      if (attempt >= MAX_UPLOAD_RESUMES)
        throw new CloudApiError('the network did not finish the upload', 0, 200, true);
      const status = await this.request<unknown>('GET', `/${id}`, undefined, undefined, oauth);
      const at = isObject(status) ? Number(status.file_offset) : Number.NaN;
      if (!Number.isSafeInteger(at) || at < 0 || at > file.bytes.length)
        throw new CloudApiError('the network answered the upload without a file offset', 0, 200, false);
      offset = at;
    }
  }

  /** What the network says of a media id (`GET /{media-id}`): its short-lived download URL, type and size. */
  async mediaInfo(mediaId: string): Promise<MediaInfo> {
    if (!MEDIA_ID.test(mediaId)) throw new CloudApiError('not a media id', 100, 400, false);
    const res = await this.request<unknown>('GET', `/${mediaId}`);
    const info = isObject(res) ? res : {};
    const url = typeof info.url === 'string' && URL.canParse(info.url) ? info.url : undefined;
    if (!url) throw new CloudApiError('the network answered without a media URL', 0, 200, false);
    const size = Number(info.file_size);
    return {
      url,
      mimeType: typeof info.mime_type === 'string' ? info.mime_type.slice(0, 200) : null,
      sha256: typeof info.sha256 === 'string' && /^[0-9a-f]{64}$/i.test(info.sha256) ? info.sha256 : null,
      fileSize: Number.isSafeInteger(size) && size >= 0 ? size : null,
    };
  }

  /**
   * Opens a media URL from mediaInfo with the number's token, as Meta requires. The token goes only
   * over HTTPS, or to the Graph base URL's own origin (the simulator): never to a plain-HTTP host a
   * tampered answer names. The caller reads the body under its own cap; the timeout bounds the whole read.
   */
  async openMedia(url: string): Promise<Response> {
    const target = new URL(url);
    if (target.protocol !== 'https:' && target.origin !== new URL(this.config.baseUrl).origin)
      throw new CloudApiError('the network gave a media URL that is not HTTPS', 0, 200, false);
    let res: Response;
    try {
      res = await fetch(target, {
        headers: { authorization: `Bearer ${this.config.accessToken}` },
        redirect: 'error',
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (err) {
      throw failedCall(err);
    }
    if (res.ok) return res;
    await res.body?.cancel().catch(() => {});
    const transient = res.status >= 500 || res.status === 429 || res.status === 408;
    throw new CloudApiError(`the media download answered ${res.status}`, 0, res.status, transient);
  }

  // undici's request, not fetch: a send's call to the network spent more CPU in fetch's web streams
  // than in the rest of the call (docs/benchmarks.md).
  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
    raw?: RawBody,
    headers: Record<string, string> = {},
  ): Promise<T> {
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(`${this.config.baseUrl}/${this.config.version}${path}`, {
        dispatcher: graphAgent,
        method: method as 'GET' | 'POST' | 'DELETE',
        headers: {
          authorization: `Bearer ${this.config.accessToken}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(raw ? { 'content-type': raw.contentType } : {}),
          ...headers,
        },
        body: raw ? Readable.from(raw.body) : body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (err) {
      throw failedCall(err);
    }
    const status = res.statusCode;
    const ok = status >= 200 && status < 300;
    let answer: CappedBody;
    try {
      answer = await readCapped(res.body, MAX_ANSWER_BYTES);
    } catch (err) {
      if (ok) throw new CloudApiError(`the network answered ${status}, then broke off`, 0, status, false);
      throw failedCall(err);
    }
    const json = answer.truncated ? undefined : parseJson(answer.bytes);
    const unread = answer.truncated
      ? `the network answered ${status} with more than ${MAX_ANSWER_BYTES} bytes`
      : `the network answered ${status} without JSON`;
    if (ok) {
      if (json === undefined) throw new CloudApiError(unread, 0, status, false);
      return json as T;
    }
    const error =
      isObject(json) && isObject(json.error) ? (json.error as Partial<GraphErrorBody['error']>) : undefined;
    if (!error) {
      // Not the Graph API's own error (those are JSON): a proxy or gateway in front of it answered. A
      // 5xx from there may come after the request reached the network, so its outcome is unknown.
      const what = json === undefined ? unread : `the network answered ${status} without an error`;
      const transient = status >= 500 || status === 429 || status === 408;
      throw new CloudApiError(what, 0, status, transient, status >= 500);
    }
    const details = isObject(error.error_data) ? error.error_data.details : undefined;
    const { code, reason } = networkError(error.code, typeof details === 'string' ? details : error.message);
    throw new CloudApiError(
      reason || `the network answered ${status}`,
      code,
      status,
      status >= 500 || status === 429 || TRANSIENT_CODES.has(code),
    );
  }
}

const MEDIA_ID = /^[\w-]{1,128}$/;
// Meta's session ids are `upload:<base64>`, at times with `?sig=...`, which goes on as they give it.
const UPLOAD_ID = /^upload:[\w\-+/=:?&%.]{1,500}$/;
const MAX_UPLOAD_RESUMES = 3;
/** Meta's largest header sample (a PDF document); images stop at 5 MB and videos at 16 MB. */
export const MAX_SAMPLE_BYTES = 100_000_000;

export interface SampleFile {
  bytes: Buffer;
  mimeType: string;
  fileName: string;
}

export interface UploadedFile {
  stream: AsyncIterable<Uint8Array>;
  mimeType: string;
  fileName: string;
}

export interface MediaInfo {
  url: string;
  mimeType: string | null;
  sha256: string | null;
  fileSize: number | null;
}

interface RawBody {
  body: AsyncIterable<Uint8Array>;
  contentType: string;
}

/** Meta's upload form (messaging_product, type, file), written around the file as it streams. */
function multipartUpload(file: UploadedFile): RawBody {
  const boundary = `----parley${randomBytes(12).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('messaging_product', 'whatsapp') +
      field('type', file.mimeType) +
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.fileName}"\r\n` +
      `content-type: ${file.mimeType}\r\n\r\n`,
  );
  async function* body() {
    yield head;
    yield* file.stream;
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { body: body(), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function* chunksOf(bytes: Buffer) {
  yield bytes;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A call that got no readable answer: a timeout or a cut connection leaves its outcome unknown.
 * fetch wraps the socket's error as its cause; undici's request throws it as it is.
 */
function failedCall(err: unknown): CloudApiError {
  const timedOut = (err as Error).name === 'TimeoutError';
  const { code, cause } = err as { code?: string; cause?: { code?: string } };
  const notSent = !timedOut && NOT_SENT_CODES.has(cause?.code ?? code ?? '');
  return new CloudApiError(
    timedOut
      ? 'the network did not answer in time'
      : notSent
        ? 'the network could not be reached'
        : 'the connection to the network broke before it answered',
    0,
    0,
    true,
    !notSent,
  );
}
