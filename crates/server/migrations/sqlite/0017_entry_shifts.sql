-- Issue 25. A day can be a deliberate extra shift on a date that already has one for its
-- courier (`separateShift`), which the device never flags as the same day logged twice. Every
-- day stored before is not one. Versions stay as they are, as in 0012: a device fills the same
-- default in its own copy (web/src/sync/db.ts, version 6), so nothing needs pulling again.
UPDATE records
SET content = json_set(content, '$.separateShift', json('false'))
WHERE kind = 'entry' AND NOT deleted;
