import { setTimeout as sleep } from 'node:timers/promises';

export interface ReceivedEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
  at: number;
}

export interface LiveStream {
  status: number;
  /** Every event so far, in order (comments and the retry line left out). */
  events: ReceivedEvent[];
  /** Waits for an event `match` accepts; fails after `ms`. */
  next(match: (e: ReceivedEvent) => boolean, ms?: number): Promise<ReceivedEvent>;
  /** Whether the server ended the stream. */
  ended(): boolean;
  close(): void;
}

/** GET /api/app/events as EventSource asks for it, read as it comes (a real connection, not inject). */
export async function openLiveStream(
  base: string,
  cookie: string,
  headers: Record<string, string> = {},
): Promise<LiveStream> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/app/events`, {
    headers: { accept: 'text/event-stream', cookie, ...headers },
    signal: abort.signal,
  });
  const events: ReceivedEvent[] = [];
  let done = false;
  if (res.ok && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) break;
          buffer += value;
          for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, i);
            buffer = buffer.slice(i + 2);
            const fields = Object.fromEntries(
              block
                .split('\n')
                .filter((l) => l && !l.startsWith(':'))
                .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
            );
            if (fields.event) {
              events.push({
                id: fields.id,
                event: fields.event,
                data: JSON.parse(fields.data ?? '{}'),
                at: Date.now(),
              });
            }
          }
        }
      } catch {
        // aborted by close()
      }
      done = true;
    })();
  } else {
    done = true;
  }
  return {
    status: res.status,
    events,
    async next(match, ms = 5_000) {
      const end = Date.now() + ms;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > end) throw new Error(`no matching event in ${ms} ms: ${JSON.stringify(events)}`);
        await sleep(10);
      }
    },
    ended: () => done,
    close: () => abort.abort(),
  };
}
