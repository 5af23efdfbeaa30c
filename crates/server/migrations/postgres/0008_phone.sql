-- Phone sign-in. Times are Unix milliseconds (UTC).

-- A number (E.164) belongs to at most one user, and a user has at most one number.
CREATE TABLE phone_identities (
    phone      TEXT PRIMARY KEY,
    user_id    UUID NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);

-- One live code per number: a resend replaces the row and its id (the verificationId), so the
-- previous code stops working. Only a salted SHA-256 of the code is kept.
CREATE TABLE phone_codes (
    phone         TEXT PRIMARY KEY,
    id            UUID NOT NULL UNIQUE,
    code_salt     TEXT NOT NULL,
    code_hash     TEXT NOT NULL,
    attempts_left BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL
);

-- Accepted sends, kept an hour for the per-number, per-IP and global send limits.
CREATE TABLE phone_sends (
    phone   TEXT NOT NULL,
    ip      TEXT NOT NULL,
    sent_at BIGINT NOT NULL
);
CREATE INDEX phone_sends_by_phone ON phone_sends (phone, sent_at);
CREATE INDEX phone_sends_by_ip ON phone_sends (ip, sent_at);
CREATE INDEX phone_sends_by_time ON phone_sends (sent_at);

-- Captcha solutions already used: presented again before their challenge expires, refused.
CREATE TABLE captcha_solutions (
    challenge  TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
);
CREATE INDEX captcha_solutions_expiry ON captcha_solutions (expires_at);

-- Keys generated on first use (the captcha signing key), shared by every server process.
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    key  BYTEA NOT NULL
);
