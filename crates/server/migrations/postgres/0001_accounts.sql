-- Accounts and sessions. Times are Unix milliseconds (UTC).
CREATE TABLE users (
    id            UUID PRIMARY KEY,
    email         TEXT UNIQUE,
    password_hash TEXT,
    display_name  TEXT,
    photo_url     TEXT,
    bio           TEXT NOT NULL DEFAULT '',
    role          TEXT NOT NULL DEFAULT 'free',
    is_anonymous  BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    BIGINT NOT NULL,
    last_login    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);

-- Only the SHA-256 of a session token is stored.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    UUID NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen  BIGINT NOT NULL,
    user_agent TEXT
);

CREATE INDEX sessions_by_user ON sessions (user_id);
