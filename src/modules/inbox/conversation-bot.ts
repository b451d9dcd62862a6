/**
 * The bot holding a conversation (`cv` its row), as a lateral join: the one unfinished run that holds
 * it (unique index runs_conversation_bot), with its automation's name.
 */
export const HOLDING_BOT = `LEFT JOIN LATERAL (
    SELECT hr.id AS run_id, hr.automation_id, ha.name, hr.awaiting IS NOT NULL AS waiting_for_answer
    FROM runs hr JOIN automations ha ON ha.workspace_id = hr.workspace_id AND ha.id = hr.automation_id
    WHERE hr.workspace_id = cv.workspace_id AND hr.contact_id = cv.contact_id AND hr.holds_conversation
      AND hr.status IN ('running', 'waiting')) AS hb ON true`;
