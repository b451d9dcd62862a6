import { readCapped } from '../../../lib/read-capped.js';
import type {
  CreateTemplateRequest,
  CreateTemplateResponse,
  GraphErrorBody,
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

// Meta's codes for errors worth retrying: throughput (130429), pair rate limit (131056), temporary
// service errors (1, 2, 131000, 131016); anything 5xx or a timeout is transient too.
const TRANSIENT_CODES = new Set([1, 2, 4, 130429, 131000, 131016, 131056, 133004]);

// Graph answers are a few KiB; the largest, a page of 100 templates with their components, stays
// under a few hundred. Anything past this is not an answer we can read, and is not held in memory.
const MAX_ANSWER_BYTES = 1024 * 1024;
const MAX_TEMPLATE_PAGES = 100;

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

export type OutboundMessage =
  | {
      type: 'template';
      to: string;
      name: string;
      language: string;
      bodyValues: string[];
      callbackData?: string;
    }
  | { type: 'text'; to: string; text: string; callbackData?: string };

/** The WhatsApp Cloud API over HTTP: the same code talks to Meta in production and to the simulator. */
export class CloudApiClient {
  constructor(private readonly config: CloudApiConfig) {}

  async send(
    phoneNumberId: string,
    message: OutboundMessage,
  ): Promise<{ wamid: string; waId: string | null }> {
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: message.to,
      ...(message.type === 'template'
        ? {
            type: 'template',
            template: {
              name: message.name,
              language: { code: message.language },
              components: message.bodyValues.length
                ? [{ type: 'body', parameters: message.bodyValues.map((text) => ({ type: 'text', text })) }]
                : [],
            },
          }
        : { type: 'text', text: { preview_url: false, body: message.text } }),
      ...(message.callbackData ? { biz_opaque_callback_data: message.callbackData } : {}),
    };
    const res = await this.request<SendResponse>('POST', `/${phoneNumberId}/messages`, body);
    const wamid = res.messages?.[0]?.id;
    if (!wamid) throw new CloudApiError('the network answered without a message id', 0, 200, true, true);
    return { wamid, waId: res.contacts?.[0]?.wa_id ?? null };
  }

  async listTemplates(businessAccountId: string): Promise<GraphTemplate[]> {
    const all: GraphTemplate[] = [];
    let after: string | undefined;
    // Meta holds up to 6,000 templates an account: every page of them, with a bound in case a
    // network never stops handing out cursors.
    for (let page = 0; page < MAX_TEMPLATE_PAGES; page++) {
      const query = new URLSearchParams({
        limit: '100',
        fields: 'id,name,language,status,category,components',
      });
      if (after) query.set('after', after);
      const res = await this.request<TemplateListResponse>(
        'GET',
        `/${businessAccountId}/message_templates?${query}`,
      );
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

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.config.baseUrl}/${this.config.version}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.config.accessToken}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (err) {
      throw failedCall(err);
    }
    let answer: Awaited<ReturnType<typeof readCapped>>;
    try {
      answer = await readCapped(res.body, MAX_ANSWER_BYTES);
    } catch (err) {
      throw failedCall(err);
    }
    const json = answer.truncated ? undefined : parseJson(answer.bytes);
    if (json === undefined) {
      throw new CloudApiError(
        answer.truncated
          ? `the network answered ${res.status} with more than ${MAX_ANSWER_BYTES} bytes`
          : `the network answered ${res.status} without JSON`,
        0,
        res.status,
        res.status >= 500,
        res.ok,
      );
    }
    if (!res.ok) {
      const error = (json as GraphErrorBody).error;
      const code = error?.code ?? 0;
      throw new CloudApiError(
        error?.error_data?.details ?? error?.message ?? `HTTP ${res.status}`,
        code,
        res.status,
        res.status >= 500 || res.status === 429 || TRANSIENT_CODES.has(code),
      );
    }
    return json as T;
  }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A call that got no readable answer: a timeout or a cut connection leaves its outcome unknown. */
function failedCall(err: unknown): CloudApiError {
  const timedOut = (err as Error).name === 'TimeoutError';
  const cause = (err as { cause?: { code?: string } }).cause;
  const notSent = !timedOut && NOT_SENT_CODES.has(cause?.code ?? '');
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
