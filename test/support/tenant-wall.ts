import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { expectRestError } from './endpoint-security.js';
import { fillPath, pathParams, routeName } from './route-table.js';

/** One caller of an API: a workspace's key (REST v1) or signed-in session (the web app's API). */
export type Call = (method: string, path: string, body?: unknown) => Promise<LightMyRequestResponse>;

/** How one route's wall is tried: workspace A's real rows, and what workspace B sends at them. */
export interface WallCase {
  /** A's own calls, to witness that the ids B tries are real. */
  a: Call;
  /** Path parameters naming A's row. */
  params?: Record<string, string>;
  /** The body B sends: valid, so that only the wall can stop it. */
  body?: unknown;
  /** Strings only A's rows hold (ids, unique names): they appear in A's answer, never in B's. */
  markers?: string[];
  /** When a string cannot tell (a count): whether an answer shows A's rows. */
  shows?: (body: unknown) => boolean;
  /** A's rows as they stand, read before and after B's call: nothing B does may change them. */
  snapshot?: () => Promise<unknown>;
  /** B's status when it is not the default (404 for a route taking an id, else anything but a 5xx). */
  status?: number;
  /** The error code with `status`, when B's call is refused. */
  code?: string;
  /** More checks after B's call, e.g. that B did not get to use A's row either. */
  after?: (res: LightMyRequestResponse) => Promise<void>;
}

/** A JSON answer as its value; any other (a CSV download) as its text. */
const answerOf = (res: LightMyRequestResponse): unknown =>
  String(res.headers['content-type'] ?? '').startsWith('application/json') ? res.json() : res.body;

/**
 * The tenant wall for one route: B asking for A's ids gets 404, B's answers never show A's rows, and
 * nothing B sends changes them. A's own call then reaches the same row (the witness), so a 404 is
 * the wall and not an id that never existed.
 */
export async function expectTenantWall(
  route: { method: string; path: string },
  c: WallCase,
  b: Call,
): Promise<void> {
  const name = routeName(route);
  const takesId = pathParams(route.path).length > 0;
  const reads = route.method === 'GET';
  if (!reads && !c.snapshot) throw new Error(`${name} writes: its tenant-wall fixture needs a snapshot`);
  if (reads && !takesId && !c.markers && !c.shows) {
    throw new Error(`${name} lists: its tenant-wall fixture needs markers of A's rows`);
  }
  const shows =
    c.shows ??
    ((body: unknown) => {
      const text = JSON.stringify(body);
      return (c.markers ?? []).some((m) => text.includes(m));
    });
  const url = fillPath(route.path, c.params);
  const brief = (body: string) => (body.length > 400 ? `${body.slice(0, 400)}…` : body);

  const before = await c.snapshot?.();
  const res = await b(route.method, url, c.body);
  const status = c.status ?? (takesId ? 404 : undefined);
  if (status !== undefined && status >= 400) expectRestError(res, status, c.code ?? 'not_found');
  else if (status !== undefined) expect(res.statusCode, `${name} from B: ${brief(res.body)}`).toBe(status);
  else expect(res.statusCode, `${name} from B: ${brief(res.body)}`).toBeLessThan(500);
  // A refusal may echo the id B sent; an answer must show nothing of A's.
  if (res.statusCode < 400)
    expect(shows(answerOf(res)), `${name} showed A's rows to B: ${brief(res.body)}`).toBe(false);
  await c.after?.(res);
  if (c.snapshot) expect(await c.snapshot(), `${name} from B changed A's rows`).toEqual(before);

  if (!reads && !takesId) return;
  const own = await c.a(route.method, url, c.body);
  if (reads) {
    expect(own.statusCode, `${name} from A: ${brief(own.body)}`).toBe(200);
    if (c.markers || c.shows) expect(shows(answerOf(own)), `${name} from A lacks A's rows`).toBe(true);
  } else {
    expect(own.statusCode, `${name} from A: ${brief(own.body)}`).not.toBe(404);
  }
}
