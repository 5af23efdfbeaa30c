-- Invoice checks (what a courier's statement said was paid for a period), synced per record
-- exactly like entries: `version` is the owner's change sequence at the last write and a
-- delete keeps a contentless tombstone row, so the id stays owned by its user.
CREATE TABLE invoices (
    id           UUID PRIMARY KEY,
    user_id      UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    period_start TEXT NOT NULL,
    period_end   TEXT NOT NULL,
    paid         BIGINT NOT NULL,
    stops        INTEGER,
    reference    TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    deleted      BOOLEAN NOT NULL DEFAULT FALSE,
    version      BIGINT NOT NULL
);

CREATE INDEX invoices_by_user_version ON invoices (user_id, version);
