-- Issue 31. A receipt upload writes its photo under a key of its own,
-- `users/{uid}/receipt_{id}_{version}`, and the row that wins records which (NULL: a photo
-- stored before, at `receipt_{id}`). Two uploads of one id at once never overwrite each
-- other's object, and the one that loses removes only what it wrote.
ALTER TABLE receipts ADD COLUMN version TEXT;

-- Issue 31. How many replay records (applied_mutations) each user holds: push adds, the
-- pruning sweep subtracts, and a push past MAX_REPLAY_RECORDS_PER_USER is refused.
ALTER TABLE users ADD COLUMN replay_count INTEGER NOT NULL DEFAULT 0;
UPDATE users SET replay_count =
    (SELECT COUNT(*) FROM applied_mutations WHERE applied_mutations.user_id = users.id);
