import { randomBytes } from 'node:crypto';

export interface Pricing {
  billable: boolean;
  pricing_model: 'PMP';
  type: 'regular' | 'free_customer_service';
  category: string;
}

/**
 * What Meta charges for a message under per-message pricing: free text (and utility templates)
 * inside the customer service window are free; every other template at its category's rate.
 */
export function pricingOf(category: string | null, windowOpen: boolean): Pricing {
  if (category === null) {
    return { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' };
  }
  const rate = category.toLowerCase();
  if (rate === 'utility' && windowOpen) {
    return { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: rate };
  }
  return { billable: true, pricing_model: 'PMP', type: 'regular', category: rate };
}

export const conversationId = () => randomBytes(16).toString('hex');

/**
 * The pricing part of a status webhook, as Meta's status reference shows it: `sent` carries the
 * conversation (with its expiry) and the pricing, `delivered` the same without the expiry, `read`
 * neither (the pricing appears once, on sent or delivered).
 */
export function billingOf(m: { conversationId: string; pricing: Pricing }, status: string, now: number) {
  if (status !== 'sent' && status !== 'delivered') return {};
  return {
    conversation: {
      id: m.conversationId,
      ...(status === 'sent' ? { expiration_timestamp: String(Math.floor(now / 1000) + 24 * 60 * 60) } : {}),
      origin: { type: m.pricing.category },
    },
    pricing: m.pricing,
  };
}
