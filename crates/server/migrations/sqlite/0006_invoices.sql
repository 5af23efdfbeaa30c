-- Invoice checks (what a courier's statement said was paid for a period), synced per record
-- exactly like entries: `version` is the owner's change sequence at the last write and a
-- delete keeps a contentless tombstone row, so the id stays owned by its user.
CREATE TABLE invoices (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    period_start TEXT NOT NULL,
    period_end   TEXT NOT NULL,
    paid         INTEGER NOT NULL,
    stops        INTEGER,
    reference    TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    deleted      INTEGER NOT NULL DEFAULT 0,
    version      INTEGER NOT NULL
) STRICT;

CREATE INDEX invoices_by_user_version ON invoices (user_id, version);
