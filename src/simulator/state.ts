import { randomBytes } from 'node:crypto';
import type { GraphTemplateComponent } from '../modules/messaging/cloud-api/types.js';
import type { Pricing } from './pricing.js';

export interface SimNumber {
  phoneNumberId: string;
  businessAccountId: string;
  displayPhone: string;
  accessToken: string;
  appSecret: string;
  webhookUrl: string;
  /** What `GET /{phone-number-id}` answers (GREEN, TIER_1K and a fixed name when unset). */
  verifiedName?: string;
  qualityRating?: string;
  messagingLimitTier?: string;
}

export interface SimTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  body: string;
  /** PAUSED and DISABLED: Meta's quality pauses; a send answers 132015 or 132016. */
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  /** Every component, as the template list shows them; a BODY of `body` alone when absent. */
  components?: GraphTemplateComponent[];
  parameterFormat?: 'POSITIONAL' | 'NAMED';
}

export function componentsOf(t: SimTemplate): GraphTemplateComponent[] {
  return t.components ?? [{ type: 'BODY', text: t.body }];
}

export interface SimMessage {
  wamid: string;
  phoneNumberId: string;
  /** The digits as the sender wrote them. */
  to: string;
  /** The WhatsApp user they reached (see waIdOf). */
  waId: string;
  type: string;
  payload: unknown;
  callbackData?: string;
  receivedAt: number;
  status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
  /** What the status webhooks report it costs (per-message pricing). */
  pricing: Pricing;
  conversationId: string;
  /** Accepted, but the network fails it afterwards with this code (a `failed` status webhook). */
  failsWith?: number;
}

export interface SimMedia {
  id: string;
  /** The number that uploaded it, or received it from a customer: its token reads it. */
  phoneNumberId: string;
  mimeType: string;
  bytes: Buffer;
  sha256: string;
}

/** One resumable upload session: the bytes received so far, and the handle once they are all in. */
export interface SimUpload {
  id: string;
  appId: string;
  fileName: string;
  fileType: string;
  fileLength: number;
  chunks: Buffer[];
  received: number;
  handle: string | null;
}

export interface Faults {
  /** Added to every Graph request, in ms. */
  latencyMs: number;
  /** Share of sends answered with a 500 (0 to 1). */
  serverErrorRate: number;
  /** Share of sends answered with error 130429 (throughput). */
  throughputErrorRate: number;
  /** Share of sends that never answer (the client times out) and are dropped unsent. */
  timeoutRate: number;
  /** Share of sends accepted and sent whose answer is lost (the connection is cut): statuses still follow. */
  lostAnswerRate: number;
  /** Sends a number may make in any one second before 130429 (0: no limit). */
  throughputPerSecond: number;
  /** A second message to the same user within this many ms gets 131056, pair rate limit (0: off). */
  pairRateLimitMs: number;
  /** The next this-many sends are refused with failNextCode (counts down). */
  failNext: number;
  failNextCode: number;
  /** Added before a media file's download answers, in ms (Parley's download shows as under way). */
  mediaLatencyMs: number;
}

/** One send request the network received, accepted (code 0) or refused with its error code. */
export interface SimAttempt {
  at: number;
  to: string;
  code: number;
}

/**
 * The WhatsApp user a number reaches. Brazil's mobiles gained a ninth digit in 2012-2016 but many
 * accounts are still registered without it: the network answers (and the customer writes from) the
 * wa_id 55 AA XXXXXXXX for 55 AA 9XXXXXXXX. The simulator does so for every Brazilian mobile.
 */
export function waIdOf(digits: string): string {
  const brazilMobile = /^55(\d{2})9(\d{8})$/.exec(digits);
  return brazilMobile ? `55${brazilMobile[1]}${brazilMobile[2]}` : digits;
}

/** A message a customer sent to a number, and when the business marked it read (Meta's blue ticks). */
export interface SimInbound {
  wamid: string;
  phoneNumberId: string;
  from: string;
  type: string;
  receivedAt: number;
  readAt: number | null;
  /** Mark-as-read requests naming this message. */
  readMarks: number;
}

export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Everything the simulated network knows; in memory, as it is a stand-in for Meta's servers. */
export class SimState {
  readonly numbers = new Map<string, SimNumber>();
  readonly templates = new Map<string, SimTemplate[]>();
  readonly messages: SimMessage[] = [];
  readonly attempts: SimAttempt[] = [];
  /** Last time each user wrote to each number: `${phoneNumberId}:${user}`. */
  readonly lastInbound = new Map<string, number>();
  /** Messages customers sent to each number (`${phoneNumberId}:${wamid}`), which it may mark read. */
  readonly inbound = new Map<string, SimInbound>();
  /** Uploaded and received media by id. */
  readonly media = new Map<string, SimMedia>();
  /** Resumable upload sessions by id (`upload:...`), and the handles they issued, to their app id. */
  readonly uploads = new Map<string, SimUpload>();
  readonly handles = new Map<string, string>();
  /** The next upload's bytes are cut off after this many (a broken connection); null: none. */
  breakNextUploadAfter: number | null = null;
  faults: Faults = {
    latencyMs: 0,
    serverErrorRate: 0,
    throughputErrorRate: 0,
    timeoutRate: 0,
    lostAnswerRate: 0,
    throughputPerSecond: 0,
    pairRateLimitMs: 0,
    failNext: 0,
    failNextCode: 130429,
    mediaLatencyMs: 0,
  };
  statusDelaysMs: [number, number, number] = [20, 40, 60];
  clockOffsetMs = 0;

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  windowOpen(phoneNumberId: string, user: string): boolean {
    const last = this.lastInbound.get(`${phoneNumberId}:${waIdOf(user)}`);
    return last !== undefined && this.now() - last < WINDOW_MS;
  }

  /** Accepted sends of a number in the last second (throughput), and to one user within `ms` (pair). */
  recentSends(phoneNumberId: string, ms: number, waId?: string): number {
    const since = this.now() - ms;
    let n = 0;
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.receivedAt <= since) break;
      if (m.phoneNumberId === phoneNumberId && (waId === undefined || m.waId === waId)) n++;
    }
    return n;
  }

  static wamid(): string {
    return `wamid.${randomBytes(24).toString('base64url')}`;
  }
}
