-- Quotas and housekeeping (issue 10). `record_count` is how many entry and invoice rows a user
-- holds, tombstones included (a tombstone is a row too): the records quota reads it instead of
-- counting rows on every push.
ALTER TABLE users ADD COLUMN record_count BIGINT NOT NULL DEFAULT 0;

UPDATE users SET record_count =
      (SELECT COUNT(*) FROM entries WHERE entries.user_id = users.id)
    + (SELECT COUNT(*) FROM invoices WHERE invoices.user_id = users.id);

-- The pruning sweep removes replay records by age.
CREATE INDEX applied_mutations_by_time ON applied_mutations (applied_at);
