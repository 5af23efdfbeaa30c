-- Every synced record kind in one table (issue 11): a kind is declared once in the server
-- and needs no table of its own. `content` is the record's pulled data without createdAt and
-- updatedAt, as JSON text (stored and returned as is; nothing queries inside it); a
-- tombstone keeps none. The key is (kind, id) with no user in it, so an id held by another
-- account is still found (and refused as `not-owner`).
CREATE TABLE records (
    kind       TEXT NOT NULL,
    id         UUID NOT NULL,
    user_id    UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    version    BIGINT NOT NULL,
    deleted    BOOLEAN NOT NULL DEFAULT FALSE,
    content    TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (kind, id)
);

-- Pull reads a user's records by version; the guest sweep's cascade finds them by user.
CREATE INDEX records_by_user_version ON records (user_id, version);

INSERT INTO records (kind, id, user_id, version, deleted, content, created_at, updated_at)
SELECT 'entry', id, user_id, version, deleted,
       CASE WHEN deleted THEN NULL
            ELSE json_build_object('date', date, 'stops', stops, 'extra', extra,
                                   'notes', notes, 'total', total)::text END,
       created_at, updated_at
FROM entries;

INSERT INTO records (kind, id, user_id, version, deleted, content, created_at, updated_at)
SELECT 'invoice', id, user_id, version, deleted,
       CASE WHEN deleted THEN NULL
            ELSE json_build_object('periodStart', period_start, 'periodEnd', period_end,
                                   'paid', paid, 'stops', stops, 'reference', reference)::text
       END,
       created_at, updated_at
FROM invoices;

DROP TABLE entries;
DROP TABLE invoices;
