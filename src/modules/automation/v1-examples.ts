/** Realistic requests and answers for the REST v1 automation operations' OpenAPI entries. */

const definition = {
  name: 'Welcome new sign-ups',
  trigger: { type: 'event', event: 'signup' },
  steps: [
    { id: 'tag', type: 'add_tag', tag: 'signed-up' },
    { id: 'welcome', type: 'send_template', template: { name: 'welcome', language: 'en' } },
  ],
};

const summary = {
  id: 'fl_3Lm8Qe',
  name: 'Welcome new sign-ups',
  kind: 'flow',
  trigger: { type: 'event', event: 'signup' },
  status: 'published',
  published: true,
  published_version: 2,
  draft_version: 2,
  created_at: '2026-11-02T11:20:00.000Z',
  updated_at: '2026-11-20T08:05:31.000Z',
};

export const automationExamples = {
  create: { ...definition, published: true },
  created: { result: true, id: 'fl_3Lm8Qe', kind: 'flow', published: true },
  secret: {
    result: true,
    webhook: {
      url: 'https://parley.example.com/api/automation/webhooks/sq_7Hd2Kx/whsec_4f9a1c0e8b7d6a5f3e2d1c0b',
      url_without_secret: 'https://parley.example.com/api/automation/webhooks/sq_7Hd2Kx',
      secret: 'whsec_4f9a1c0e8b7d6a5f3e2d1c0b',
    },
  },
  change: { name: 'Welcome new sign-ups (v2)', published: true },
  list: { result: true, automations: [summary], next_cursor: null },
  one: {
    result: true,
    automation: {
      ...summary,
      archived_at: null,
      unpublished_changes: false,
      draft: definition,
      published_definition: definition,
      versions: [
        { version: 2, published_at: '2026-11-20T08:05:31.000Z' },
        { version: 1, published_at: '2026-11-02T11:20:00.000Z' },
      ],
      runs: {
        total: 318,
        running: 4,
        waiting: 12,
        completed: 297,
        failed: 3,
        stopped: 2,
        last_run_at: '2026-11-28T09:41:12.000Z',
      },
      warnings: [],
      webhook: null,
    },
  },
};
