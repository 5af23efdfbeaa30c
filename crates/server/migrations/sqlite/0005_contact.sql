-- Messages from the contact form, signed in or not, for the operator (`messages list`).
CREATE TABLE contact_messages (
    id         TEXT PRIMARY KEY,
    user_id    TEXT REFERENCES users (id) ON DELETE SET NULL,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL,
    subject    TEXT NOT NULL,
    message    TEXT NOT NULL,
    created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX contact_messages_by_time ON contact_messages (created_at);
