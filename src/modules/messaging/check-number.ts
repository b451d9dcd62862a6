import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { CloudApiError } from './cloud-api/client.js';
import { clientFor, numberOfWorkspace, saveNumberHealth } from './connected-numbers.js';
import { numberProblem } from './number-problems.js';
import { pauseNumber, resumeNumber } from './pause-number.js';

const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 200) : null);

/**
 * "Check again" (Settings › Connected number): reads the number from the Graph API with its stored
 * token. When Meta answers, what it says of the number is kept and a paused number resumes; when Meta
 * refuses it for a reason that concerns the number, it is paused (or stays so) and the answer says why.
 */
export async function checkNumber(ctx: AppContext, workspaceId: string): Promise<{ resumed: boolean }> {
  const number = await numberOfWorkspace(ctx, ctx.db, workspaceId);
  if (!number) throw new ApiError('no_connected_number', 'This workspace has no connected number');
  let info: Awaited<ReturnType<ReturnType<typeof clientFor>['phoneNumber']>>;
  try {
    info = await clientFor(ctx, number, 15_000).phoneNumber(number.phoneNumberId);
  } catch (err) {
    if (!(err instanceof CloudApiError)) throw err;
    if (err.transient || err.httpStatus === 0)
      throw new ApiError(
        'unavailable',
        `Parley could not reach Meta to check the number (${err.message}); try again`,
      );
    const todo = numberProblem(err.code);
    if (todo) await pauseNumber(ctx, number, { code: err.code, reason: err.message });
    throw new ApiError(
      'number_paused',
      `Meta still refuses the number (${err.message}). ${todo ?? ''}`.trim(),
    );
  }
  await saveNumberHealth(ctx.db, number, {
    verifiedName: text(info.verified_name),
    qualityRating: text(info.quality_rating),
    messagingLimitTier: text(info.messaging_limit_tier),
  });
  return { resumed: await resumeNumber(ctx, workspaceId) };
}
