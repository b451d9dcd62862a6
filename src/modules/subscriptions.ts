import { routeToBot, stopBotForTeammate } from './automation/bot-routing.js';
import { startMessageFlows } from './automation/message-event.js';
import { markReplied } from './broadcasts/mark-replied.js';
import { pauseForNumber, resumeAfterNumber } from './broadcasts/number-pause.js';
import { followMessages } from './broadcasts/recipient-follow.js';
import { wakeWaitingForLimit } from './broadcasts/wake-waiting.js';
import { announceConversationChange, conversationCreated } from './inbox/conversation-webhooks.js';
import { subscribe } from './messaging/events.js';
import { askSatisfaction } from './routing/ask-satisfaction.js';
import { autoAssign } from './routing/auto-assign.js';
import { awayOrGreeting } from './routing/away-or-greeting.js';
import { surveyAnswer } from './routing/survey-answer.js';

/**
 * Who hears what messaging publishes (messaging/events.ts), set once as a process starts
 * (runtime/compose.ts). Messaging stays at the bottom of the module graph: it imports none of the
 * modules that react to it, they are listed here instead.
 */
export function wireSubscriptions(): void {
  subscribe({
    on: {
      'message.received': [
        startMessageFlows,
        surveyAnswer,
        routeToBot,
        conversationCreated,
        autoAssign,
        awayOrGreeting,
        (_ctx, tx, e) => markReplied(tx, e.workspaceId, e.contactId, e.at),
      ],
      'teammate.replied': [stopBotForTeammate],
      'conversation.changed': [announceConversationChange, askSatisfaction],
      'number.paused': [(_ctx, tx, e) => pauseForNumber(tx, e.workspaceId)],
      'number.resumed': [
        async (ctx, tx, e) => {
          await resumeAfterNumber(ctx, tx, e.workspaceId);
          return () => ctx.queue?.wake('broadcasts.deliver');
        },
      ],
      'number.limit_changed': [(ctx, _db, e) => wakeWaitingForLimit(ctx, e.workspaceId)],
    },
    statusChanged: [(changed) => followMessages(changed.rows, changed.keys)],
  });
}
