/**
 * The bot holding a conversation (`cv` its row), as a lateral join: the one unfinished run that holds
 * it (unique index runs_conversation_bot), with its automation's name.
 */
export const HOLDING_BOT = `LEFT JOIN LATERAL (
    SELECT hr.id AS run_id, hr.automation_id, ha.name, hr.awaiting IS NOT NULL AS waiting_for_answer
    FROM runs hr JOIN automations ha ON ha.workspace_id = hr.workspace_id AND ha.id = hr.automation_id
    WHERE hr.workspace_id = cv.workspace_id AND hr.contact_id = cv.contact_id AND hr.holds_conversation
      AND hr.status IN ('running', 'waiting')) AS hb ON true`;

/** The bot that handed the conversation to the team and waits to be handed it back (`assign`, then=wait). */
export const WAITING_BOT = `LEFT JOIN LATERAL (
    SELECT wr.id AS run_id, wr.automation_id, wa.name
    FROM runs wr JOIN automations wa ON wa.workspace_id = wr.workspace_id AND wa.id = wr.automation_id
    WHERE wr.workspace_id = cv.workspace_id AND wr.contact_id = cv.contact_id AND wr.status = 'waiting'
      AND wr.awaiting ->> 'kind' = 'handoff'
    ORDER BY wr.updated_at DESC LIMIT 1) AS wb ON true`;
