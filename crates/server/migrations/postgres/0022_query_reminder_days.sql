-- Issue 28: days a sent statement query may go unanswered before the reminder, a synced setting
-- (1 to 90, checked by settings.put).
ALTER TABLE users ADD COLUMN query_reminder_days INTEGER NOT NULL DEFAULT 14;
