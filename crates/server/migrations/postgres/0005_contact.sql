-- Messages from the contact form, signed in or not, for the operator (`messages list`).
CREATE TABLE contact_messages (
    id         UUID PRIMARY KEY,
    user_id    UUID REFERENCES users (id) ON DELETE SET NULL,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL,
    subject    TEXT NOT NULL,
    message    TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE INDEX contact_messages_by_time ON contact_messages (created_at);
