-- Profile and settings travel through sync like entries: each has the owner's change
-- sequence number of its last write. Payment tiers are JSON (pence per stop), NULL = default.
ALTER TABLE users ADD COLUMN payment_tiers TEXT;
ALTER TABLE users ADD COLUMN profile_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN theme TEXT NOT NULL DEFAULT 'dark';
ALTER TABLE users ADD COLUMN settings_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN settings_updated_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN photo_updated_at BIGINT;
