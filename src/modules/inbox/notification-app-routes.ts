import type { RestApp } from '../../api/rest-app.js';
import {
  listNotifications,
  markNotificationsRead,
  NotificationList,
  NotificationsQuery,
  ReadBody,
  ReadResult,
} from './notifications.js';

/**
 * A teammate's own notices (mentions in notes, issue 32): listed with the unread count, marked read.
 * Each session sees only its own user's in its own workspace; REST v1 has no counterpart.
 */
export function registerAppNotificationRoutes(app: RestApp): void {
  const { db } = app.ctx;

  app.get(
    '/notifications',
    { schema: { querystring: NotificationsQuery, response: { 200: NotificationList } } },
    async (request) => {
      const s = request.session();
      return {
        result: true as const,
        ...(await listNotifications(db, s.workspaceId, s.userId, request.query)),
      };
    },
  );

  app.post(
    '/notifications/read',
    { schema: { body: ReadBody, response: { 200: ReadResult } } },
    async (request) => {
      const s = request.session();
      return {
        result: true as const,
        unread: await markNotificationsRead(db, s.workspaceId, s.userId, request.body),
      };
    },
  );
}
