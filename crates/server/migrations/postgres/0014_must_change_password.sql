-- Issue 14. `users reset-password` gives an account a temporary password that must be changed:
-- signing in with it works, but until a new password is chosen the session answer says so and
-- every other write is refused (403 password-change-required). A successful change clears it.
ALTER TABLE users ADD COLUMN must_change_password BOOLEAN NOT NULL DEFAULT FALSE;
