import type { RestApp } from '../../api/rest-app.js';
import { broadcastEndpoints } from './endpoints.js';

/** REST v1: any key of the workspace may create, read and control its broadcasts. */
export function registerBroadcastRoutes(app: RestApp): void {
  broadcastEndpoints(
    app,
    (request) => ({
      workspaceId: request.principal().workspaceId,
      mayControl: () => {},
    }),
    true,
  );
}
