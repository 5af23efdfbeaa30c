-- E-mailing contact messages to the operator. The stored row stays the durable record; these
-- columns say whether its e-mail went out. Messages stored before this (or while SMTP is not
-- configured) are 'not-configured' and are never e-mailed later.
--   pending: due at email_next_attempt_at (a worker that claims it pushes that forward as a lease)
--   sent:    emailed_at set;  failed: gave up after email_attempts tries, email_last_error says why
ALTER TABLE contact_messages
    ADD COLUMN email_status TEXT NOT NULL DEFAULT 'not-configured'
        CHECK (email_status IN ('not-configured', 'pending', 'sent', 'failed')),
    ADD COLUMN email_attempts INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN email_last_error TEXT,
    ADD COLUMN email_next_attempt_at BIGINT,
    ADD COLUMN emailed_at BIGINT;

CREATE INDEX contact_messages_email_due ON contact_messages (email_next_attempt_at)
    WHERE email_status = 'pending';
