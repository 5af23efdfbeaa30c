-- Issue 13. Expenses, vehicles and mileage are record kinds: they need no table.
--
-- The settings document gains the tax region: which Income Tax bands the tax year view uses
-- (`uk` or `scotland`), the same on every device. Existing users get the UK bands.
ALTER TABLE users ADD COLUMN tax_region TEXT NOT NULL DEFAULT 'uk';

-- Receipt photos are files, not records: this is their ledger, for the per-user byte quota
-- and the ownership check. The id is the device's (an expense lists it) and unique across
-- users, so another account's id is recognised and refused; the photo itself is the object
-- `users/{user_id}/receipt_{id}` in the file store. A deleted user's rows go with them.
CREATE TABLE receipts (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    id         TEXT NOT NULL UNIQUE,
    bytes      INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, id)
) STRICT;

-- The orphan sweep looks at old receipts only.
CREATE INDEX receipts_by_age ON receipts (created_at);
