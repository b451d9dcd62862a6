-- What Meta says of a connected number, read when it is connected: its verified name, quality rating
-- (GREEN, YELLOW, RED, UNKNOWN) and messaging limit tier (TIER_250 ... TIER_UNLIMITED).
ALTER TABLE connected_numbers ADD COLUMN verified_name text;
ALTER TABLE connected_numbers ADD COLUMN quality_rating text;
ALTER TABLE connected_numbers ADD COLUMN messaging_limit_tier text;
ALTER TABLE connected_numbers ADD COLUMN health_checked_at timestamptz;
-- The app-level webhook receiver finds a number by the phone_number_id in the payload's metadata.
CREATE INDEX connected_numbers_phone_number_id ON connected_numbers (phone_number_id);
