import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '../../db/db.js';

/** The channel migrations/0019_sending_notices.sql announces a workspace on when its number or templates change. */
export const SENDING_NOTICES = 'parley_sending';

// The bound on a stale entry should a notice be lost without the connection saying so (a silent partition).
const TTL_MS = 60_000;
const TEMPLATES_PER_WORKSPACE = 1_000;

interface Held<N, T> {
  number?: N | null;
  templates: Map<string, T | null>;
}

/**
 * What a send reads before anything else, held in memory: the workspace's connected number (its
 * token already opened) and the templates asked for. A trigger announces every change to either on
 * SENDING_NOTICES as it commits, and every instance drops the workspace as the notice arrives. Only
 * while this instance listens: until LISTEN takes effect, and whenever its connection is lost,
 * nothing is held and every send reads the database, so a disconnected number is never used from
 * memory. A read under way when a notice arrives answers its own send but is not kept.
 */
export class SendingCache<N extends { id: string; workspaceId: string }, T> {
  readonly #byWorkspace = new LRUCache<string, Held<N, T>>({ max: 10_000, ttl: TTL_MS });
  readonly #byId = new LRUCache<string, N>({ max: 10_000, ttl: TTL_MS });
  #epoch = 0;
  #listening: boolean | undefined;
  #unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>) {}

  async start(listen: Db['listen']): Promise<void> {
    this.#unlisten = await listen(SENDING_NOTICES, {
      notice: (workspaceId) => this.forget(workspaceId),
      listening: () => {
        this.clear();
        if (this.#listening === false) this.log.info({}, 'Sending notices are heard again');
        this.#listening = true;
      },
      lost: (err) => {
        this.clear();
        if (this.#listening === false) return;
        this.#listening = false;
        this.log.warn({ err }, 'Sending notices are not heard: every send reads its number and template');
      },
    });
  }

  async stop(): Promise<void> {
    this.#listening = undefined;
    this.clear();
    await this.#unlisten?.();
  }

  /** The workspace's connected number (null: none), from memory or from `read`. */
  async number(workspaceId: string, read: () => Promise<N | null>): Promise<N | null> {
    const held = this.#byWorkspace.get(workspaceId)?.number;
    if (held !== undefined) return held;
    return this.#keep(read, (number) => {
      this.#held(workspaceId).number = number;
      if (number) this.#byId.set(number.id, number);
    });
  }

  /** The number with this id (a webhook's URL names it), from memory or from `read`. */
  async numberById(id: string, read: () => Promise<N | null>): Promise<N | null> {
    const held = this.#byId.get(id);
    if (held) return held;
    return this.#keep(read, (number) => {
      if (number) this.#byId.set(id, number);
    });
  }

  /** One of the workspace's templates by `key` (null: none such), from memory or from `read`. */
  async template(workspaceId: string, key: string, read: () => Promise<T | null>): Promise<T | null> {
    const held = this.#byWorkspace.get(workspaceId)?.templates.get(key);
    if (held !== undefined) return held;
    return this.#keep(read, (template) => {
      const { templates } = this.#held(workspaceId);
      if (templates.size >= TEMPLATES_PER_WORKSPACE) templates.clear();
      templates.set(key, template);
    });
  }

  /** Drops what is held of the workspace: the instance that changed it does not wait for its own notice. */
  forget(workspaceId: string): void {
    this.#epoch++;
    this.#byWorkspace.delete(workspaceId);
    for (const [id, number] of this.#byId.entries())
      if (number.workspaceId === workspaceId) this.#byId.delete(id);
  }

  async #keep<V>(read: () => Promise<V>, store: (value: V) => void): Promise<V> {
    const epoch = this.#epoch;
    const value = await read();
    if (this.#listening === true && epoch === this.#epoch) store(value);
    return value;
  }

  #held(workspaceId: string): Held<N, T> {
    let held = this.#byWorkspace.get(workspaceId);
    if (!held) {
      held = { templates: new Map() };
      this.#byWorkspace.set(workspaceId, held);
    }
    return held;
  }

  private clear(): void {
    this.#epoch++;
    this.#byWorkspace.clear();
    this.#byId.clear();
  }
}
