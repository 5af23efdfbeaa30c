-- Delivery log entries, synced per record. `version` is the owner's change sequence at the
-- last write (pull cursors are these); deletes keep a tombstone row.
ALTER TABLE users ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0;

CREATE TABLE entries (
    id         UUID PRIMARY KEY,
    user_id    UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    date       TEXT NOT NULL,
    stops      INTEGER NOT NULL,
    extra      BIGINT NOT NULL,
    notes      TEXT NOT NULL,
    total      BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    deleted    BOOLEAN NOT NULL DEFAULT FALSE,
    version    BIGINT NOT NULL
);

CREATE INDEX entries_by_user_version ON entries (user_id, version);

-- Every mutation id a user pushed, with the answer it got: a replay gets the same answer
-- and changes nothing.
CREATE TABLE applied_mutations (
    user_id     UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mutation_id TEXT NOT NULL,
    result      TEXT NOT NULL,
    applied_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, mutation_id)
);
