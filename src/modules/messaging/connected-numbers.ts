import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { sha256Hex } from '../../lib/hash.js';
import { newId } from '../../lib/ids.js';
import { CloudApiClient } from './cloud-api/client.js';
import type { ConnectedNumber, StoredNumber } from './number-types.js';
import { resumeNumber } from './pause-number.js';

export type { ConnectedNumber } from './number-types.js';

export interface ConnectNumberInput {
  phoneNumberId: string;
  businessAccountId: string;
  displayPhone: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  graphBaseUrl: string;
  /** The number's throughput on the network (1 to 1,000; 80 when first connected without one). */
  messagesPerSecond?: number;
}

/**
 * Connects (or reconnects) the workspace's number; secrets are sealed before they are stored. New
 * credentials are the owner's fix for a paused number: it resumes (and pauses again at its next
 * send should Meta still refuse it).
 */
export async function connectNumber(
  ctx: AppContext,
  workspaceId: string,
  input: ConnectNumberInput,
): Promise<{ id: string }> {
  const rate = input.messagesPerSecond;
  if (rate !== undefined && (!Number.isInteger(rate) || rate < 1 || rate > 1000)) {
    throw ApiError.validation('messages_per_second', 'must be a whole number from 1 to 1,000');
  }
  const { rows } = await ctx.db.query<{ id: string }>(
    `INSERT INTO connected_numbers (workspace_id, id, phone_number_id, business_account_id, display_phone,
       access_token_enc, app_secret_enc, verify_token_hash, graph_base_url, messages_per_second)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, COALESCE($10::int, 80))
     ON CONFLICT (workspace_id) DO UPDATE SET phone_number_id = EXCLUDED.phone_number_id,
       business_account_id = EXCLUDED.business_account_id, display_phone = EXCLUDED.display_phone,
       access_token_enc = EXCLUDED.access_token_enc, app_secret_enc = EXCLUDED.app_secret_enc,
       verify_token_hash = EXCLUDED.verify_token_hash, graph_base_url = EXCLUDED.graph_base_url,
       messages_per_second = COALESCE($10::int, connected_numbers.messages_per_second)
     RETURNING id`,
    [
      workspaceId,
      newId('pn'),
      input.phoneNumberId,
      input.businessAccountId,
      input.displayPhone,
      ctx.secrets.seal(input.accessToken),
      ctx.secrets.seal(input.appSecret),
      sha256Hex(input.verifyToken),
      input.graphBaseUrl.replace(/\/+$/, ''),
      input.messagesPerSecond ?? null,
    ],
  );
  await resumeNumber(ctx, workspaceId);
  return { id: rows[0]!.id };
}

interface Row {
  id: string;
  workspace_id: string;
  phone_number_id: string;
  business_account_id: string;
  display_phone: string;
  graph_base_url: string;
  messages_per_second: number;
  access_token_enc: string;
  app_secret_enc: string;
  verify_token_hash: string;
  templates_synced_at: Date | null;
  created_at: Date;
  verified_name: string | null;
  quality_rating: string | null;
  messaging_limit_tier: string | null;
  paused_at: Date | null;
  paused_code: number | null;
  paused_reason: string | null;
}

const COLUMNS = `id, workspace_id, phone_number_id, business_account_id, display_phone, graph_base_url,
  messages_per_second, access_token_enc, app_secret_enc, verify_token_hash, templates_synced_at, created_at,
  verified_name, quality_rating, messaging_limit_tier, paused_at, paused_code, paused_reason`;

function open(ctx: AppContext, row: Row): StoredNumber {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    phoneNumberId: row.phone_number_id,
    businessAccountId: row.business_account_id,
    displayPhone: row.display_phone,
    graphBaseUrl: row.graph_base_url,
    messagesPerSecond: row.messages_per_second,
    accessToken: ctx.secrets.open(row.access_token_enc),
    appSecret: ctx.secrets.open(row.app_secret_enc),
    verifyTokenHash: row.verify_token_hash,
    templatesSyncedAt: row.templates_synced_at,
    connectedAt: row.created_at,
    verifiedName: row.verified_name,
    qualityRating: row.quality_rating,
    messagingLimitTier: row.messaging_limit_tier,
    paused: row.paused_at
      ? { at: row.paused_at, code: row.paused_code ?? 0, reason: row.paused_reason ?? '' }
      : null,
  };
}

export async function numberOfWorkspace(ctx: AppContext, db: Queryable, workspaceId: string) {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM connected_numbers WHERE workspace_id = $1`, [
    workspaceId,
  ]);
  return rows[0] ? open(ctx, rows[0]) : null;
}

/** The workspace's number for a send, held in memory while this instance hears of changes to it. */
export function sendingNumber(ctx: AppContext, workspaceId: string) {
  return ctx.sending.number(workspaceId, () => numberOfWorkspace(ctx, ctx.db, workspaceId));
}

/** The number a webhook URL names, held in memory like sendingNumber. */
export function webhookNumber(ctx: AppContext, id: string) {
  return ctx.sending.numberById(id, () => numberById(ctx, id));
}

export async function numberById(ctx: AppContext, id: string) {
  const { rows } = await ctx.db.query<Row>(`SELECT ${COLUMNS} FROM connected_numbers WHERE id = $1`, [id]);
  return rows[0] ? open(ctx, rows[0]) : null;
}

/** The numbers connected with this phone_number_id (in one workspace, as connecting ensures). */
export async function numbersByPhoneNumberId(ctx: AppContext, phoneNumberId: string) {
  const { rows } = await ctx.db.query<Row>(
    `SELECT ${COLUMNS} FROM connected_numbers WHERE phone_number_id = $1`,
    [phoneNumberId],
  );
  return rows.map((r) => open(ctx, r));
}

/** The numbers a webhook payload names: by phone_number_id, or by business account (template events). */
export async function numbersNamedIn(
  ctx: AppContext,
  phoneNumberIds: string[],
  businessAccountIds: string[],
) {
  const { rows } = await ctx.db.query<Row>(
    `SELECT ${COLUMNS} FROM connected_numbers
     WHERE phone_number_id = ANY($1::text[]) OR business_account_id = ANY($2::text[])`,
    [phoneNumberIds, businessAccountIds],
  );
  return rows.map((r) => open(ctx, r));
}

/** What Meta said of the number when it was last read. */
export async function saveNumberHealth(
  db: Queryable,
  number: { workspaceId: string; id: string },
  health: { verifiedName: string | null; qualityRating: string | null; messagingLimitTier: string | null },
): Promise<void> {
  await db.query(
    `UPDATE connected_numbers SET verified_name = $3, quality_rating = $4, messaging_limit_tier = $5,
       health_checked_at = now()
     WHERE workspace_id = $1 AND id = $2`,
    [number.workspaceId, number.id, health.verifiedName, health.qualityRating, health.messagingLimitTier],
  );
}

/** Forgets the workspace's number and its credentials: sends then find no connected number. */
export async function disconnectNumber(db: Queryable, workspaceId: string): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    'DELETE FROM connected_numbers WHERE workspace_id = $1 RETURNING id',
    [workspaceId],
  );
  if (!rows[0]) return false;
  await db.query('DELETE FROM message_pacing WHERE workspace_id = $1 AND number_id = $2', [
    workspaceId,
    rows[0].id,
  ]);
  return true;
}

export async function allNumbers(ctx: AppContext) {
  const { rows } = await ctx.db.query<Row>(`SELECT ${COLUMNS} FROM connected_numbers`);
  return rows.map((r) => open(ctx, r));
}

export function clientFor(ctx: AppContext, number: ConnectedNumber, timeoutMs = 30_000): CloudApiClient {
  return new CloudApiClient({
    baseUrl: number.graphBaseUrl,
    version: ctx.config.graphApiVersion,
    accessToken: number.accessToken,
    timeoutMs,
  });
}
