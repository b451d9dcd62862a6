import type { RestApp } from '../../api/rest-app.js';
import { requireManager } from '../accounts/roles.js';
import { broadcastEndpoints } from './endpoints.js';

/** The web app: members read broadcasts; owners and admins create and control them. */
export function registerAppBroadcastRoutes(app: RestApp): void {
  broadcastEndpoints(
    app,
    (request) => {
      const s = request.session();
      return { workspaceId: s.workspaceId, mayControl: () => requireManager(s.role) };
    },
    false,
  );
}
