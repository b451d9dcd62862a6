import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { hubSignature } from '../modules/messaging/cloud-api/signature.js';
import type { WebhookMessage, WebhookPayload, WebhookStatus } from '../modules/messaging/cloud-api/types.js';
import type { SimNumber } from './state.js';

function envelope(
  number: SimNumber,
  value: Partial<WebhookPayload['entry'][number]['changes'][number]['value']> & Record<string, unknown>,
  field = 'messages',
) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.businessAccountId,
        changes: [
          {
            field,
            value: {
              messaging_product: 'whatsapp',
              // Meta sends the display number as digits only ("15550783881"), whatever its formatting.
              metadata: {
                display_phone_number: number.displayPhone.replace(/\D/g, ''),
                phone_number_id: number.phoneNumberId,
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/**
 * JSON as Meta sends webhooks: every character past ASCII escaped with lowercase hex (`\u00e4`,
 * a surrogate pair for the astral ones). Meta signs this escaped form, so receivers that follow its
 * documentation escape what they got before checking the signature; over plain UTF-8 they fail.
 */
export function metaJson(body: unknown): string {
  return JSON.stringify(body).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Posts a webhook to the number's callback URL, signed as Meta signs it: the HMAC of exactly the
 * bytes sent, which are the escaped JSON. Returns the HTTP status.
 */
export async function deliver(number: SimNumber, body: unknown): Promise<number> {
  const raw = metaJson(body);
  try {
    // undici's request, not fetch: a broadcast's thousand status webhooks a second spent more CPU in
    // fetch's web streams than in anything else the simulator does (docs/benchmarks.md).
    const res = await request(number.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': hubSignature(raw, number.appSecret),
      },
      body: raw,
      signal: AbortSignal.timeout(10_000),
    });
    // Only the status counts: a short answer is read to its end, so the connection is kept for the
    // next webhook; past a few KiB the rest is not read.
    await res.body.dump({ limit: 4096 }).catch(() => {});
    return res.statusCode;
  } catch {
    return 0;
  }
}

/**
 * Delivers a webhook as Meta does: a failed delivery (no answer, or not 2xx) is tried again with
 * growing pauses (Meta keeps trying for days; the simulator for about a minute).
 */
export async function deliverRetrying(number: SimNumber, body: unknown): Promise<void> {
  for (let pause = 1_000; ; pause *= 2) {
    const status = await deliver(number, body);
    if ((status >= 200 && status < 300) || pause > 32_000) return;
    await sleep(pause, undefined, { ref: false });
  }
}

export function inboundPayload(number: SimNumber, message: WebhookMessage, profileName?: string) {
  return envelope(number, {
    contacts: [{ profile: { name: profileName ?? message.from }, wa_id: message.from }],
    messages: [message],
  });
}

export function statusPayload(number: SimNumber, status: WebhookStatus) {
  return envelope(number, { statuses: [status] });
}

/** Meta's `user_preferences` change: the customer stopped or resumed the business's marketing messages. */
export function userPreferencesPayload(
  number: SimNumber,
  waId: string,
  value: 'stop' | 'resume',
  at: number,
) {
  return envelope(
    number,
    {
      contacts: [{ profile: { name: waId }, wa_id: waId }],
      user_preferences: [
        {
          wa_id: waId,
          detail: `User requested to ${value} marketing messages`,
          category: 'marketing_messages',
          value,
          timestamp: Math.floor(at / 1000),
        },
      ],
    },
    'user_preferences',
  );
}

/** Meta's `message_template_status_update` change, sent when a template is approved or rejected. */
export function templateStatusPayload(
  wabaId: string,
  t: { id: string; name: string; language: string; status: string },
) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        time: Math.floor(Date.now() / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event: t.status,
              message_template_id: Number(t.id) || t.id,
              message_template_name: t.name,
              message_template_language: t.language,
              reason: t.status === 'REJECTED' ? 'INCORRECT_CATEGORY' : 'NONE',
            },
          },
        ],
      },
    ],
  };
}
