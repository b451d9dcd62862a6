/** Realistic requests and answers for the broadcast operations' OpenAPI entries (checked against their schemas). */

const contact = {
  id: 'ct_2bXk9q',
  phone: '919876543210',
  name: 'Asha',
  email: 'asha@example.com',
  tags: ['vip', 'diwali-2026'],
  traits: { city: 'Pune' },
  opted_out: false,
  opted_out_at: null,
  created_at: '2026-10-02T09:12:44.000Z',
  updated_at: '2026-11-20T16:40:00.000Z',
};

const broadcast = {
  id: 'brd_6Yw1rN',
  name: 'Diwali offer',
  status: 'sending',
  paused_reason: null,
  template: { name: 'diwali_offer', language: 'en', category: 'MARKETING' },
  audience: { tags_any: ['vip'] },
  values: { body: [{ from: 'contact', field: 'name', fallback: 'there' }] },
  send_at: null,
  time_zone: 'Asia/Kolkata',
  reply_window_hours: 24,
  created_at: '2026-11-28T09:00:00.000Z',
  started_at: '2026-11-28T09:00:01.000Z',
  completed_at: null,
  cancelled_at: null,
  counts: {
    audience: 1200,
    queued: 285,
    sent: 900,
    delivered: 850,
    read: 610,
    failed: 12,
    skipped: 3,
    replied: 41,
  },
  failed_by_reason: [{ code: 131026, reason: 'Message undeliverable', count: 12 }],
  limit: { tier: 'TIER_1K', used_24h: 912, max_24h: 1000 },
};

export const broadcastExamples = {
  create: {
    name: 'Diwali offer',
    template: { name: 'diwali_offer', language: 'en' },
    audience: { tags_any: ['vip'], tags_none: ['unsubscribed'] },
    values: { body: [{ from: 'contact', field: 'name', fallback: 'there' }] },
    send_at: '2026-11-29T09:00:00+05:30',
  },
  audience: { audience: { tags_any: ['vip'] }, template: { name: 'diwali_offer', language: 'en' } },
  preview: {
    template: { name: 'diwali_offer', language: 'en' },
    values: { body: [{ from: 'contact', field: 'name', fallback: 'there' }] },
    contact_id: 'ct_2bXk9q',
  },
  one: { result: true, broadcast },
  list: { result: true, broadcasts: [broadcast], limit: 50, offset: 0, has_next_page: false },
  counted: { result: true, count: 1200, sample: [contact] },
  previewed: {
    result: true,
    contact,
    rendered: { body: 'Hi Asha, 20% off everything this Diwali.', footer: 'Reply STOP to opt out' },
    missing: [],
  },
  recipients: {
    result: true,
    recipients: [
      {
        contact_id: 'ct_2bXk9q',
        phone: '919876543210',
        name: 'Asha',
        status: 'read',
        message_id: 'msg_5rT2kq',
        error: null,
        sent_at: '2026-11-28T09:00:03.000Z',
        delivered_at: '2026-11-28T09:00:05.000Z',
        read_at: '2026-11-28T09:14:40.000Z',
        replied_at: null,
      },
    ],
    limit: 50,
    offset: 0,
    has_next_page: false,
  },
  timeline: {
    result: true,
    bucket: 'minute',
    points: [{ at: '2026-11-28T09:00:00.000Z', sent: 80, delivered: 76, read: 30, failed: 1 }],
  },
};
