-- Issues 26 and 27. Links sent to one e-mail address: a password reset (asked for on the login
-- page) or an invitation to sign up (from the operator's `users invite`, which works while
-- sign-ups are closed). Only the SHA-256 of a link's token is kept. A link works once: using it
-- deletes it. Times are Unix milliseconds (UTC).
CREATE TABLE email_links (
    token_hash TEXT PRIMARY KEY,
    purpose    TEXT NOT NULL CHECK (purpose IN ('password-reset', 'invite')),
    -- Normalised. A reset's is its account's address when it was sent; an invite's becomes the
    -- new account's address.
    email      TEXT NOT NULL,
    -- The account whose password a reset sets; NULL for an invite.
    user_id    TEXT REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    CHECK ((purpose = 'password-reset') = (user_id IS NOT NULL))
) STRICT;
CREATE INDEX email_links_by_user ON email_links (user_id);
CREATE INDEX email_links_by_email ON email_links (email);
CREATE INDEX email_links_by_expiry ON email_links (expires_at);
