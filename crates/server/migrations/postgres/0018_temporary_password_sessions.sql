-- Issue 25. A session records whether it was signed in with a temporary password (an
-- operator's `users reset-password`): only such a session may choose the new password without
-- typing the temporary one again. Sessions from before are not.
ALTER TABLE sessions ADD COLUMN temporary_password BOOLEAN NOT NULL DEFAULT FALSE;
