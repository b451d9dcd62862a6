import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';

const waiting = new AsyncLocalStorage<() => void>();
const requests = new WeakMap<object, () => void>();

// undici names each request as it is created (in the caller's async context) and again as its
// headers are written to the socket: the moment the send leaves for the network.
subscribe('undici:request:create', (message) => {
  const reached = waiting.getStore();
  if (reached) requests.set((message as { request: object }).request, reached);
});
subscribe('undici:client:sendHeaders', (message) => {
  const { request } = message as { request: object };
  requests.get(request)?.();
  requests.delete(request);
});

/** Runs `call`; `reached` is called when its first HTTP request is written to the network. */
export function onReachingNetwork<T>(reached: () => void, call: () => Promise<T>): Promise<T> {
  return waiting.run(reached, call);
}
