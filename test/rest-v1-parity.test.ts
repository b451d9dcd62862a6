import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from './support/app.js';
import { routeName, withRouteTable } from './support/route-table.js';

// Issue 31: every page of the web app has its REST v1 counterpart, except sign-in and team management.
// The routes come from the server itself: a new /api/app route must be mapped or excluded here, or this fails.

const { value: t, routes } = await withRouteTable(() => createTestApp({ role: 'api' }));
afterAll(async () => {
  await t.close();
});

const appRoutes = routes.filter((r) => r.prefix === '/api/app').map(routeName);
const v1Routes = new Set(routes.filter((r) => r.prefix === '/api/v1').map(routeName));

/** Each app route and the REST v1 route(s) that do what it does, where the path or verb differs or not. */
const PARITY: Record<string, string[]> = {
  'GET /audit-log': ['GET /audit-log'],

  'GET /automations': ['GET /automations'],
  'POST /automations': ['POST /automations'],
  'GET /automations/:id': ['GET /automations/:id'],
  'PUT /automations/:id': ['PATCH /automations/:id'],
  'POST /automations/:id/publish': ['PATCH /automations/:id'],
  'POST /automations/:id/unpublish': ['PATCH /automations/:id'],
  'POST /automations/:id/archive': ['DELETE /automations/:id'],
  'POST /automations/:id/restore': ['POST /automations/:id/restore'],
  'POST /automations/:id/rotate-secret': ['POST /automations/:id/rotate-secret'],
  'GET /runs': ['GET /runs'],
  'GET /runs/:id': ['GET /runs/:id'],

  'GET /broadcasts': ['GET /broadcasts'],
  'POST /broadcasts': ['POST /broadcasts'],
  'GET /broadcasts/:id': ['GET /broadcasts/:id'],
  'POST /broadcasts/:id/cancel': ['POST /broadcasts/:id/cancel'],
  'POST /broadcasts/:id/pause': ['POST /broadcasts/:id/pause'],
  'POST /broadcasts/:id/resume': ['POST /broadcasts/:id/resume'],
  'GET /broadcasts/:id/recipients': ['GET /broadcasts/:id/recipients'],
  'GET /broadcasts/:id/timeline': ['GET /broadcasts/:id/timeline'],
  'POST /broadcasts/audience': ['POST /broadcasts/audience'],
  'POST /broadcasts/preview': ['POST /broadcasts/preview'],

  'GET /contacts': ['GET /contacts'],
  'POST /contacts': ['POST /contacts'],
  'GET /contacts/:id': ['GET /contacts/:id'],
  'PATCH /contacts/:id': ['PATCH /contacts/:id'],
  'PUT /contacts/:id/opt-out': ['PATCH /contacts/:id'],
  'DELETE /contacts/:id': ['DELETE /contacts/:id'],
  'GET /contacts/export': ['GET /contacts/export'],
  'POST /contacts/import': ['POST /contacts/import'],
  'GET /contacts/imports/:id': ['GET /contacts/imports/:id'],
  'GET /contacts/tags': ['GET /contacts/tags'],

  // The inbox: the app's list and unread badge are REST v1's conversation list (each with its unread count).
  'GET /inbox': ['GET /conversations'],
  'GET /inbox/unread': ['GET /conversations'],
  'GET /conversations/:id': ['GET /conversations/:id', 'GET /conversations/:id/messages'],
  'PATCH /conversations/:id': [
    'POST /conversations/:id/resolve',
    'POST /conversations/:id/reopen',
    'POST /conversations/:id/pending',
    'POST /conversations/:id/assign',
  ],
  'POST /conversations/:id/team': ['POST /conversations/:id/assign'],
  'POST /conversations/:id/bot/stop': ['POST /conversations/:id/bot/stop'],
  'POST /conversations/:id/bot/resume': ['POST /conversations/:id/bot/resume'],
  'POST /conversations/:id/notes': ['POST /conversations/:id/notes'],
  'POST /conversations/:id/messages': ['POST /messages'],
  'GET /messages': ['GET /messages'],
  'GET /messages/:id/media': ['GET /messages/:id/media'],
  'POST /media': ['POST /media'],
  'GET /quick-replies': ['GET /quick-replies'],
  'POST /quick-replies': ['POST /quick-replies'],
  'PUT /quick-replies/:id': ['PUT /quick-replies/:id'],
  'DELETE /quick-replies/:id': ['DELETE /quick-replies/:id'],
  'GET /labels': ['GET /labels'],
  'POST /labels': ['POST /labels'],
  'PATCH /labels/:id': ['PATCH /labels/:id'],
  'DELETE /labels/:id': ['DELETE /labels/:id'],
  'POST /conversations/:id/labels': ['POST /conversations/:id/labels'],
  'DELETE /conversations/:id/labels/:label_id': ['DELETE /conversations/:id/labels/:label_id'],
  'POST /conversations/:id/snooze': ['POST /conversations/:id/snooze'],
  'POST /conversations/:id/unsnooze': ['POST /conversations/:id/unsnooze'],
  'POST /conversations/bulk': ['POST /conversations/bulk'],

  'GET /routing': ['GET /routing'],
  'PUT /routing': ['PUT /routing'],
  'GET /business-hours': ['GET /business-hours'],
  'PUT /business-hours': ['PUT /business-hours'],
  'GET /teams': ['GET /teams'],
  'POST /teams': ['POST /teams'],
  'GET /teams/:id': ['GET /teams/:id'],
  'PATCH /teams/:id': ['PATCH /teams/:id'],
  'DELETE /teams/:id': ['DELETE /teams/:id'],
  'GET /satisfaction': ['GET /satisfaction'],
  'GET /satisfaction/settings': ['GET /satisfaction/settings'],
  'PUT /satisfaction/settings': ['PUT /satisfaction/settings'],

  'GET /dashboard': ['GET /dashboard'],

  'GET /leads': ['GET /leads'],
  'GET /leads/:id': ['GET /leads/:id'],
  'PATCH /leads/:id': ['PATCH /leads/:id'],
  'POST /leads/:id/notes': ['POST /leads/:id/notes'],
  'POST /leads/:id/archive': ['DELETE /leads/:id'],
  'POST /leads/:id/restore': ['POST /leads/:id/restore'],
  'GET /leads/export': ['GET /leads/export'],

  'GET /forms': ['GET /forms'],
  'POST /forms': ['POST /forms'],
  'GET /forms/:id': ['GET /forms/:id'],
  'PATCH /forms/:id': ['PATCH /forms/:id'],
  'POST /forms/:id/archive': ['DELETE /forms/:id'],
  'POST /forms/:id/restore': ['POST /forms/:id/restore'],

  'GET /templates': ['GET /templates'],
  'POST /templates': ['POST /templates'],
  'DELETE /templates/:id': ['DELETE /templates/:id'],
  'POST /templates/sync': ['POST /templates/sync'],
  'POST /templates/header-sample': ['POST /templates/header-sample'],
  'POST /templates/:id/archive': ['POST /templates/:id/archive'],
  'POST /templates/:id/restore': ['POST /templates/:id/restore'],

  'GET /number': ['GET /number'],
  'POST /number': ['PUT /number'],
  'DELETE /number': ['DELETE /number'],
  'POST /number/check': ['POST /number/check'],

  'GET /webhooks': ['GET /webhooks'],
  'POST /webhooks': ['POST /webhooks'],
  'DELETE /webhooks/:id': ['DELETE /webhooks/:id'],
  'GET /webhooks/:id/deliveries': ['GET /webhooks/:id/deliveries'],
  'POST /webhooks/:id/test': ['POST /webhooks/:id/test'],

  'GET /workspace': ['GET /workspace'],
  'PATCH /workspace': ['PATCH /workspace'],
  'GET /workspace/retention': ['GET /workspace/retention'],
  'PATCH /workspace/retention': ['PATCH /workspace/retention'],
  'GET /usage': ['GET /usage'],
};

const SIGN_IN = 'sign-in and the session: a key is already signed in to its workspace';
const TEAM = 'team management: who may sign in to the workspace, and as what';
const TEAMMATE = "one teammate's own state: a key is not a teammate";

/** App routes REST v1 leaves to the app, each with why (docs/api-changes.md lists them too). */
const EXCLUDED: Record<string, string> = {
  'POST /login': SIGN_IN,
  'POST /logout': SIGN_IN,
  'GET /session': SIGN_IN,
  'POST /session/workspace': SIGN_IN,
  'POST /setup': 'the first sign-up of a new installation: it makes the owner, before any key exists',
  'POST /password-reset': SIGN_IN,
  'POST /password-reset/complete': SIGN_IN,
  'POST /invitations': TEAM,
  'DELETE /invitations/:id': TEAM,
  'GET /invitations/:token': TEAM,
  'POST /invitations/accept': TEAM,
  'GET /team': TEAM,
  'PATCH /members/:id': TEAM,
  'DELETE /members/:id': TEAM,
  'POST /workspaces': `${TEAM}: a new workspace is a new tenant with its own owner`,
  'GET /api-keys': 'API keys: a key cannot mint, list or revoke keys',
  'POST /api-keys': 'API keys: a key cannot mint, list or revoke keys',
  'DELETE /api-keys/:id': 'API keys: a key cannot mint, list or revoke keys',
  'GET /events': "the app's live stream of changes; webhooks are the API's push",
  'GET /me/availability': TEAMMATE,
  'PUT /me/availability': TEAMMATE,
  'PUT /me/language': TEAMMATE,
  'POST /conversations/:id/read': TEAMMATE,
  // A saved view is its author's (shared views are still theirs to change): a key is not a teammate.
  'GET /saved-views': TEAMMATE,
  'POST /saved-views': TEAMMATE,
  'PATCH /saved-views/:id': TEAMMATE,
  'DELETE /saved-views/:id': TEAMMATE,
  'GET /notifications': TEAMMATE,
  'POST /notifications/read': TEAMMATE,
  'GET /presence': TEAMMATE,
  'POST /presence': TEAMMATE,
  'POST /number/simulator': 'the development simulator, which has its own API at /_sim',
  'GET /number/simulator/customer': 'the development simulator, which has its own API at /_sim',
  'POST /number/simulator/customer/messages': 'the development simulator, which has its own API at /_sim',
};

describe('REST v1 parity with the app', () => {
  it('maps or excludes only app routes that exist, never both', () => {
    const app = new Set(appRoutes);
    expect(Object.keys(PARITY).filter((r) => !app.has(r))).toEqual([]);
    expect(Object.keys(EXCLUDED).filter((r) => !app.has(r))).toEqual([]);
    expect(Object.keys(PARITY).filter((r) => r in EXCLUDED)).toEqual([]);
  });

  it.each(appRoutes)('%s has its REST v1 counterpart or a reason not to', (route) => {
    if (route in EXCLUDED) return;
    const counterparts = PARITY[route];
    if (!counterparts)
      throw new Error(
        `${route}: no REST v1 counterpart. Add one (and map it in PARITY) or say why not in EXCLUDED, ` +
          'in test/rest-v1-parity.test.ts and docs/api-changes.md',
      );
    expect(counterparts.filter((r) => !v1Routes.has(r))).toEqual([]);
  });
});
