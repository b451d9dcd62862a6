-- Templates keep every component the network lists (header, body, footer, buttons, in Meta's shapes):
-- what a send of each must give is derived from them. A message keeps the Graph components it was
-- sent with, so a retry sends exactly the same.
ALTER TABLE templates ADD COLUMN components jsonb NOT NULL DEFAULT '[]';
ALTER TABLE templates ADD COLUMN parameter_format text NOT NULL DEFAULT 'POSITIONAL';
ALTER TABLE templates ADD COLUMN quality_score text;
ALTER TABLE templates ADD COLUMN rejected_reason text;
ALTER TABLE messages ADD COLUMN template_components jsonb;
