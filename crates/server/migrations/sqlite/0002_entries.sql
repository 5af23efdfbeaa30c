-- Delivery log entries, synced per record. `version` is the owner's change sequence at the
-- last write (pull cursors are these); deletes keep a tombstone row.
ALTER TABLE users ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;

CREATE TABLE entries (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    date       TEXT NOT NULL,
    stops      INTEGER NOT NULL,
    extra      INTEGER NOT NULL,
    notes      TEXT NOT NULL,
    total      INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted    INTEGER NOT NULL DEFAULT 0,
    version    INTEGER NOT NULL
) STRICT;

CREATE INDEX entries_by_user_version ON entries (user_id, version);

-- Every mutation id a user pushed, with the answer it got: a replay gets the same answer
-- and changes nothing.
CREATE TABLE applied_mutations (
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    mutation_id TEXT NOT NULL,
    result      TEXT NOT NULL,
    applied_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, mutation_id)
) STRICT, WITHOUT ROWID;
