-- The client addresses (IPv6 by /64) each user has signed in from, as keyed hashes: from one of them
-- the e-mail address's own throttle never locks its owner out (issue 27: strangers' failures from
-- other addresses did). Forgotten after 180 days unseen (maintenance.cleanup).
CREATE TABLE known_sign_in_addresses (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  address_hash text NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, address_hash)
);
CREATE INDEX known_sign_in_addresses_last_seen ON known_sign_in_addresses (last_seen_at);
