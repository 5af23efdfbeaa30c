-- Accounts and sessions. Times are Unix milliseconds (UTC).
CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    email         TEXT UNIQUE,
    password_hash TEXT,
    display_name  TEXT,
    photo_url     TEXT,
    bio           TEXT NOT NULL DEFAULT '',
    role          TEXT NOT NULL DEFAULT 'free',
    is_anonymous  INTEGER NOT NULL DEFAULT 0,
    created_at    INTEGER NOT NULL,
    last_login    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
) STRICT;

-- Only the SHA-256 of a session token is stored.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL,
    user_agent TEXT
) STRICT;

CREATE INDEX sessions_by_user ON sessions (user_id);
