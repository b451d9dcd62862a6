-- A customer can stop or resume marketing messages in WhatsApp itself; Meta tells the business with
-- its user_preferences webhook, recorded as a consent change from source 'whatsapp'.
ALTER TABLE consent_changes DROP CONSTRAINT consent_changes_source_check;
ALTER TABLE consent_changes ADD CONSTRAINT consent_changes_source_check
  CHECK (source IN ('keyword', 'payload', 'api', 'app', 'whatsapp'));
