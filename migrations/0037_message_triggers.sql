-- Bots: automations started by what a customer writes (trigger {"type": "message_received", ...}).
ALTER TABLE automations DROP CONSTRAINT automations_trigger_type_check;
ALTER TABLE automations ADD CONSTRAINT automations_trigger_type_check
  CHECK (trigger_type IN ('event', 'webhook', 'form_submitted', 'lead_created', 'message_received'));
-- Every inbound message reads the workspace's published message triggers.
CREATE INDEX automations_published_message ON automations (workspace_id, created_at, id)
  WHERE published_version IS NOT NULL AND trigger_type = 'message_received';
