import { expect, it } from 'vitest';
import { fromSocketError } from './control-socket.js';

it("rebuilds a server's refusal, and reads an earlier server's plain message too", () => {
  const err = fromSocketError({ code: 'not_found', message: 'workspace ws_x does not exist' });
  expect([err.code, err.status, err.message]).toEqual(['not_found', 404, 'workspace ws_x does not exist']);
  const old = fromSocketError('workspace ws_x does not exist');
  expect([old.code, old.message]).toEqual(['bad_request', 'workspace ws_x does not exist']);
});
