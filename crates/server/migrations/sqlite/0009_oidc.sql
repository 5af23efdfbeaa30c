-- OpenID Connect sign-in. Users are keyed by (issuer, subject), never by e-mail.
CREATE TABLE user_identities (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (issuer, subject)
) STRICT;

CREATE INDEX user_identities_by_user ON user_identities (user_id);

-- One row per sign-in popup between /oidc/start and /oidc/callback: consumed on first use,
-- worthless after expires_at. `link_user_id` is the guest whose account the identity joins.
CREATE TABLE oidc_requests (
    state         TEXT PRIMARY KEY,
    nonce         TEXT NOT NULL,
    pkce_verifier TEXT NOT NULL,
    link_user_id  TEXT REFERENCES users (id) ON DELETE CASCADE,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL
) STRICT;

CREATE INDEX oidc_requests_by_expiry ON oidc_requests (expires_at);
