import { ApiError } from '../../api/errors.js';

/**
 * Expensive reads (the dashboard, audience counts) one workspace runs at once in this process, and how
 * many more may wait for a place: one workspace's burst of counts must leave the connection pool to the
 * others (the abuse bench: 50 audience counts at once took every connection, and another workspace's
 * p99 rose from 89 ms to 2.6 s). Tests lower them.
 */
export const READ_SHARE = { running: 3, waiting: 20, waitMs: 5_000 };

interface Share {
  running: number;
  waiting: (() => void)[];
}

const shares = new Map<string, Share>();

/**
 * Runs `read` when the workspace has a place; waits for one up to `waitMs` (503 past it), and refuses
 * at once past the waiting bound (503): a refused read holds no connection.
 */
export async function withinShare<T>(workspaceId: string, read: () => Promise<T>): Promise<T> {
  const share = shares.get(workspaceId) ?? { running: 0, waiting: [] };
  shares.set(workspaceId, share);
  if (share.running >= READ_SHARE.running) {
    if (share.waiting.length >= READ_SHARE.waiting) throw busy();
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        share.waiting.splice(share.waiting.indexOf(go), 1);
        reject(busy());
      }, READ_SHARE.waitMs);
      share.waiting.push(go);
    });
  } else share.running++;
  try {
    return await read();
  } finally {
    // A place is handed straight to the next in line, so the count never passes the bound.
    const next = share.waiting.shift();
    if (next) next();
    else if (--share.running === 0) shares.delete(workspaceId);
  }
}

const busy = () =>
  new ApiError(
    'unavailable',
    'Too many counts are running for this workspace at once; try again in a few seconds',
  );
