import { randomInt } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { newSecret } from '../../lib/ids.js';
import { allNumbers, type ConnectedNumber, type ConnectNumberInput } from './connected-numbers.js';

/** The simulator is mounted at /_sim: always on the embedded database, with SIMULATOR=true elsewhere. */
export function simulatorMounted(ctx: AppContext): boolean {
  return ctx.db.kind === 'pglite' || ctx.config.simulator;
}

/** The simulator's address on this server, when it is mounted here. */
export function localSimulatorUrl(ctx: AppContext): string {
  return `${ctx.config.appUrl}/_sim`;
}

/** A new number on the simulator mounted here: random ids and fresh secrets. */
export function simulatorConnection(ctx: AppContext): ConnectNumberInput {
  return {
    phoneNumberId: String(100_000_000_000_000 + randomInt(999_999_999_999)),
    businessAccountId: String(200_000_000_000_000 + randomInt(999_999_999_999)),
    displayPhone: '+1 555 0100',
    accessToken: newSecret('EAAsim'),
    appSecret: newSecret(''),
    verifyToken: newSecret('verify_'),
    graphBaseUrl: localSimulatorUrl(ctx),
  };
}

/**
 * The simulator keeps its state in memory: tell it about a number connected to it (credentials,
 * webhook URL, the workspace's templates as they stand), with the operator token this server is
 * configured with. Returns false when it cannot be reached or refuses.
 */
export async function registerWithSimulator(ctx: AppContext, number: ConnectedNumber) {
  const { rows } = await ctx.db.query<{
    name: string;
    language: string;
    category: string;
    body: string;
    status: string;
    components: unknown[];
    parameterFormat: string;
  }>(
    `SELECT name, language, category, body, status, components, parameter_format AS "parameterFormat" FROM templates
     WHERE workspace_id = $1 AND status IN ('APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED')`,
    [number.workspaceId],
  );
  try {
    const res = await fetch(`${number.graphBaseUrl}/numbers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${ctx.config.simulatorToken ?? ''}`,
      },
      body: JSON.stringify({
        phoneNumberId: number.phoneNumberId,
        businessAccountId: number.businessAccountId,
        displayPhone: number.displayPhone,
        accessToken: number.accessToken,
        appSecret: number.appSecret,
        webhookUrl: `${ctx.config.appUrl}/api/webhooks/whatsapp/${number.id}`,
        templates: rows,
      }),
      signal: AbortSignal.timeout(5_000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** On start: numbers connected to this server's own simulator are registered with it again. */
export async function relinkSimulatorNumbers(ctx: AppContext): Promise<void> {
  for (const number of await allNumbers(ctx)) {
    if (number.graphBaseUrl === localSimulatorUrl(ctx)) await registerWithSimulator(ctx, number);
  }
}
