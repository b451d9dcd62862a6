import { randomBytes } from 'node:crypto';
import { connectNumber, numberOfWorkspace } from '../../src/modules/messaging/connected-numbers.js';
import { syncTemplates } from '../../src/modules/templates/sync-templates.js';
import type { SimState } from '../../src/simulator/state.js';
import { simAppId } from '../../src/simulator/uploads.js';
import { createTestApp, SIM_TOKEN, type TestApp, type TestAppOptions } from './app.js';
import { SAMPLE_HANDLE } from './rich-template.js';
import { startedForTests } from './started-for-tests.js';

/** Headers for the simulator's control routes (/_sim/inbound, /_sim/status...): the operator token. */
export const simHeaders = { 'content-type': 'application/json', authorization: `Bearer ${SIM_TOKEN}` };

/** Listens on a loopback port, so the in-process simulator can post its signed webhooks back. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

export function simState(t: TestApp): SimState {
  return t.app.simState;
}

export interface SimulatorApp extends TestApp {
  /** Where it listens (http://127.0.0.1:port): the simulator's webhooks and control routes. */
  base: string;
  /** A new workspace whose number is connected to the simulator: connectedWorkspace(t, base, options). */
  connectedWorkspace(options?: ConnectedWorkspaceOptions): ReturnType<typeof connectedWorkspace>;
}

/**
 * A test app for the tests of this file (or describe block), listening for the in-process
 * simulator: made before them, closed after. `statusDelaysMs`: when the simulator posts a sent
 * message's statuses (sent, delivered, read; -1: never).
 */
export function simulatorAppForTests(
  options: TestAppOptions & { statusDelaysMs?: SimState['statusDelaysMs'] } = {},
): SimulatorApp {
  const { statusDelaysMs, ...appOptions } = options;
  return startedForTests(
    async () => {
      const t = await createTestApp(appOptions);
      const base = await listen(t);
      if (statusDelaysMs) simState(t).statusDelaysMs = statusDelaysMs;
      return {
        ...t,
        base,
        connectedWorkspace: (o?: ConnectedWorkspaceOptions) => connectedWorkspace(t, base, o),
      };
    },
    (t) => t.close(),
  );
}

export const SIM_TEMPLATES = [
  {
    name: 'welcome',
    language: 'en',
    category: 'MARKETING',
    body: 'Hi {{1}}, welcome to {{2}}!',
    status: 'APPROVED' as const,
  },
  { name: 'hello', language: 'en_US', category: 'UTILITY', body: 'Hello!', status: 'APPROVED' as const },
  { name: 'draft', language: 'en', category: 'MARKETING', body: 'Soon {{1}}', status: 'PENDING' as const },
];

interface ConnectedWorkspaceOptions {
  defaultCountryCode?: string | null;
  messagesPerSecond?: number;
}

/** A workspace whose number is connected to the in-process simulator, with templates synced from it. */
export async function connectedWorkspace(t: TestApp, base: string, options: ConnectedWorkspaceOptions = {}) {
  const ws = await t.workspace({ defaultCountryCode: options.defaultCountryCode ?? '91' });
  return { ...ws, number: await connectSimulator(t, base, ws.id, options) };
}

/**
 * A new workspace whose number calls `graphBaseUrl` (a test's own fake Graph API, or a port where
 * nothing listens) and is signed with app secret 'app-secret'; no simulator, no templates synced.
 */
export async function workspaceWithNumber(t: TestApp, graphBaseUrl: string) {
  const ws = await t.workspace();
  const phoneNumberId = String(100_000 + Math.floor(Math.random() * 899_999));
  await connectNumber(t.ctx, ws.id, {
    phoneNumberId,
    businessAccountId: `waba${phoneNumberId}`,
    displayPhone: '+1 555 0100',
    verifyToken: 'verify-me',
    graphBaseUrl,
    accessToken: 'token',
    appSecret: 'app-secret',
  });
  return { ...ws, number: (await numberOfWorkspace(t.ctx, t.ctx.db, ws.id))! };
}

/** Connects an existing workspace's number to the in-process simulator and syncs its templates. */
export async function connectSimulator(
  t: TestApp,
  base: string,
  workspaceId: string,
  options: { messagesPerSecond?: number } = {},
) {
  const secrets = {
    accessToken: randomBytes(16).toString('hex'),
    appSecret: randomBytes(16).toString('hex'),
  };
  const phoneNumberId = String(100_000 + Math.floor(Math.random() * 899_999));
  await connectNumber(t.ctx, workspaceId, {
    phoneNumberId,
    businessAccountId: `waba${phoneNumberId}`,
    displayPhone: '+1 555 0100',
    verifyToken: 'verify-me',
    graphBaseUrl: `${base}/_sim`,
    messagesPerSecond: options.messagesPerSecond,
    ...secrets,
  });
  const number = (await numberOfWorkspace(t.ctx, t.ctx.db, workspaceId))!;
  simState(t).numbers.set(phoneNumberId, {
    phoneNumberId,
    businessAccountId: number.businessAccountId,
    displayPhone: number.displayPhone,
    accessToken: secrets.accessToken,
    appSecret: secrets.appSecret,
    webhookUrl: `${base}/api/webhooks/whatsapp/${number.id}`,
  });
  simState(t).templates.set(
    number.businessAccountId,
    SIM_TEMPLATES.map((x, i) => ({ ...x, id: String(1_000_000_000_000 + i) })),
  );
  issueSampleHandle(t, number.businessAccountId);
  await syncTemplates(t.ctx, number);
  return number;
}

/** The rich template's header sample, as if uploaded to the account's app (the simulator refuses others). */
function issueSampleHandle(t: TestApp, businessAccountId: string) {
  simState(t).handles.set(SAMPLE_HANDLE, simAppId({ businessAccountId }));
}

/** POSTs to one of the simulator's control endpoints and returns its JSON answer. */
export async function simControl<T = Record<string, unknown>>(
  base: string,
  path: string,
  body: unknown = {},
) {
  const res = await fetch(`${base}/_sim${path}`, {
    method: 'POST',
    headers: simHeaders,
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/**
 * A number as Meta knows it (on the in-process simulator), not yet connected to Parley; the test
 * points `graphApiUrl` at the simulator so that connecting it asks the simulator as it would ask Meta.
 */
export function metaNumber(t: SimulatorApp) {
  const phoneNumberId = String(300_000_000 + Math.floor(Math.random() * 99_999_999));
  const number = {
    phoneNumberId,
    businessAccountId: `4${phoneNumberId}`,
    displayPhone: '+1 555 0199',
    accessToken: `EAA${randomBytes(16).toString('hex')}`,
    appSecret: randomBytes(16).toString('hex'),
    webhookUrl: `${t.base}/api/webhooks/whatsapp`,
    qualityRating: 'YELLOW',
    messagingLimitTier: 'TIER_10K',
  };
  simState(t).numbers.set(phoneNumberId, number);
  simState(t).templates.set(
    number.businessAccountId,
    SIM_TEMPLATES.map((x, i) => ({ ...x, id: String(2_000_000_000_000 + i) })),
  );
  issueSampleHandle(t, number.businessAccountId);
  return number;
}

/** The connect form's body (the app's POST /number, REST v1's PUT /number) for a number Meta knows. */
export const connectBody = (n: ReturnType<typeof metaNumber>) => ({
  phone_number_id: n.phoneNumberId,
  business_account_id: n.businessAccountId,
  access_token: n.accessToken,
  app_secret: n.appSecret,
});
