-- Issue 26. A vehicle says how far its driver commutes, home to depot one way
-- (`commuteMiles`), so a day's odometer readings become business miles with it taken off.
-- Every vehicle stored before has none said: 0, which takes nothing off. Versions stay: a
-- device fills the same default in its own copy (web/src/sync/db.ts, version 8).
UPDATE records
SET content = json_set(content, '$.commuteMiles', 0)
WHERE kind = 'vehicle' AND NOT deleted;
